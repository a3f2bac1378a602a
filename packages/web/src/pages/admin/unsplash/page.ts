import { PictureOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '图片管理',
  group: 'content',
  icon: PictureOutlined,
  order: 140,
});
