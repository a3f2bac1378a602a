import { SafetyCertificateOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '角色管理',
  group: 'system',
  icon: SafetyCertificateOutlined,
  order: 212,
  hint: '角色 = 一组页面与操作的权限 + 可见的应用；在操作员管理中把角色分配给操作员',
});
