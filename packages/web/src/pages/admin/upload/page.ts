import { CloudUploadOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '文件管理',
  group: 'release',
  icon: CloudUploadOutlined,
  order: 170,
});
