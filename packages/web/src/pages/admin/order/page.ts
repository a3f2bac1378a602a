import { ProfileOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '订单管理',
  group: 'commerce',
  icon: ProfileOutlined,
  order: 50,
});
