import { LoginOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '登录日志',
  group: 'system',
  icon: LoginOutlined,
  order: 220,
});
