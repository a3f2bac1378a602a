import { LockOutlined, ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { missingForPage } from './pageAccess';

/**
 * What the console shows in place of a page the operator's roles do not open (its URL typed or
 * kept), saying which permission is missing and who gives it.
 */
export function PageForbidden({
  label,
  pageKey,
  backText,
  onBack,
}: {
  label: string;
  pageKey: string;
  backText: string;
  onBack: () => void;
}) {
  return (
    <Result
      status="403"
      title="无权访问此页面"
      subTitle={
        <>
          打开「{label}」需要「{missingForPage(pageKey)}」权限，你的角色没有这一项。
          <br />
          如需使用，请联系超级管理员在「操作员管理」中为你分配包含此权限的角色。
        </>
      }
      extra={
        <Button type="primary" onClick={onBack}>
          {backText}
        </Button>
      }
    />
  );
}

/**
 * The console of an operator who holds no role yet: nothing to open but their own account, and
 * what to do about it.
 */
export function NoRoleView({
  checking,
  onCheck,
  onAccount,
}: {
  checking: boolean;
  onCheck: () => void;
  onAccount: () => void;
}) {
  return (
    <Result
      icon={<SafetyCertificateOutlined aria-hidden />}
      title="你的账号还没有分配角色"
      subTitle={
        <>
          管理后台的菜单、页面和按钮按角色开放，你现在还没有任何角色，所以这里是空的。
          <br />
          请联系超级管理员在「操作员管理」中为你分配角色（如 客服、财务、运营），分配后点「重新检查」即可开始使用。
        </>
      }
      extra={[
        <Button key="check" type="primary" icon={<ReloadOutlined aria-hidden />} loading={checking} onClick={onCheck}>
          重新检查
        </Button>,
        <Button key="account" onClick={onAccount}>
          个人中心
        </Button>,
      ]}
    />
  );
}

/** The operator's permissions could not be read: nothing is shown until they are. */
export function GrantsFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  return (
    <Result
      icon={<LockOutlined aria-hidden />}
      title="暂时无法读取你的权限"
      subTitle="网络或服务器出了问题，页面和按钮要等读到你的权限后才能显示。请稍后重试。"
      extra={
        <Button type="primary" icon={<ReloadOutlined aria-hidden />} loading={retrying} onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}
