import { DashboardOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '数据统计',
  group: 'overview',
  icon: DashboardOutlined,
  order: 10,
});
