/**
 * The answer of 重置密码: the new random initial password, shown this once (the dialog is shared
 * with 操作员管理).
 */
export { InitialPasswordModal as ResetResultModal } from '../../../components/admin/InitialPasswordModal';
