import { IdcardOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '操作员管理',
  group: 'system',
  icon: IdcardOutlined,
  order: 214,
  hint: '能登录后台的账号：分配角色与可见应用、停用、重置密码；权限在角色管理中设置',
});
