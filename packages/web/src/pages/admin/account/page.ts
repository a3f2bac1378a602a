import { UserOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '个人中心',
  group: 'system',
  icon: UserOutlined,
  order: 270,
  inMenu: false,
});
