import { SoundOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '音效管理',
  group: 'content',
  icon: SoundOutlined,
  order: 150,
});
