import { AuditOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '操作日志',
  group: 'system',
  icon: AuditOutlined,
  order: 210,
});
