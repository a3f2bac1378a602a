import { TeamOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '用户管理',
  group: 'people',
  icon: TeamOutlined,
  order: 20,
});
