import { BugOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '前端错误',
  group: 'system',
  icon: BugOutlined,
  order: 260,
});
