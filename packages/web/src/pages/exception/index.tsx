import { Button, Result } from 'antd';
import { navigate } from '../../nav';

export type ExceptionStatus = '403' | '404' | '500';

const texts: Record<ExceptionStatus, { title: string; subTitle: string }> = {
  '403': { title: '403 无权访问', subTitle: '抱歉，你没有访问此页面的权限。如需进入管理后台，请使用管理员账号登录。' },
  '404': { title: '404 页面不存在', subTitle: '抱歉，你访问的页面不存在或已被移除，请检查地址是否正确。' },
  '500': { title: '500 服务器出错', subTitle: '抱歉，服务器出了点问题，请稍后再试。' },
};

/** Exception result with a way back; used by the user layout and the admin console. */
export function ExceptionView({
  status,
  onBack,
  backText = '返回首页',
  heading = false,
}: {
  status: ExceptionStatus;
  onBack?: () => void;
  backText?: string;
  /** The page's own h1 (the console's header already has one, naming the 404). */
  heading?: boolean;
}) {
  const text = texts[status];
  return (
    <Result
      status={status}
      title={heading ? <h1 className="exception-title">{text.title}</h1> : text.title}
      subTitle={text.subTitle}
      extra={[
        <Button key="back" type="primary" onClick={onBack ?? (() => navigate('/'))}>
          {backText}
        </Button>,
        status === '403' ? (
          <Button key="login" onClick={() => navigate('/user/login')}>
            切换账号登录
          </Button>
        ) : null,
      ]}
    />
  );
}

/** /exception/403, /exception/404, /exception/500. */
export default function ExceptionPage({ status }: { status: ExceptionStatus }) {
  return (
    <section className="user-card" style={{ paddingBottom: 24 }}>
      <ExceptionView status={status} heading />
    </section>
  );
}
