import { DesktopOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '在线用户',
  group: 'system',
  icon: DesktopOutlined,
  order: 250,
});
