import type { Allocation } from '@appdesk/contract/types';
import { AppLink } from '../../components/AppLink';

interface Props {
  allocation: Allocation | undefined;
  loading: boolean;
  onRetry: () => void;
}

/** 下载 App: a button and a QR code (drawn by the server) per configured platform. */
function Downloads({ allocation }: { allocation: Allocation }) {
  const platforms = [
    { key: 'android', label: 'Android 下载', url: allocation.androidUrl },
    { key: 'ios', label: 'App Store 下载', url: allocation.iosUrl },
  ].filter((p) => p.url);
  if (platforms.length === 0) return null;
  return (
    <section className="front-card front-downloads" aria-labelledby="front-download">
      <h2 id="front-download">下载 App</h2>
      <div className="front-download-list">
        {platforms.map((p) => (
          <div key={p.key} className="front-download">
            <img src={`/site/qr/${p.key}.svg`} alt={`${p.label}二维码`} width={132} height={132} loading="lazy" />
            <a className="front-button" href={p.url} rel="noreferrer">
              {p.label}
            </a>
          </div>
        ))}
      </div>
    </section>
  );
}

/** The public home page: logo, title, slogen, about, QQ and the service image. */
export function HomePage({ allocation, loading, onRetry }: Props) {
  const year = new Date().getFullYear();
  const title = allocation?.title || 'AppDesk';
  return (
    <div className="front">
      <header className="front-header">
        <div className="front-bar">
          <span className="front-brand">
            {allocation?.logo ? (
              <img className="front-brand-logo" src={allocation.logo} alt="" width={32} height={32} />
            ) : (
              <span className="front-brand-mark" aria-hidden="true">
                {title.slice(0, 1)}
              </span>
            )}
            <span>{allocation ? title : '\u00a0'}</span>
          </span>
          <AppLink className="front-login" href="/user/login">
            管理后台登录
          </AppLink>
        </div>
      </header>

      <main className="front-main">
        <section className="front-hero" aria-labelledby="front-title">
          {allocation ? (
            <>
              {allocation.logo ? (
                <img className="front-logo" src={allocation.logo} alt={`${title} 的 Logo`} width={96} height={96} />
              ) : null}
              <h1 id="front-title">{title}</h1>
              {allocation.slogen ? <p className="front-slogen">{allocation.slogen}</p> : null}
            </>
          ) : loading ? (
            <div className="front-skeleton" role="status" aria-label="正在加载站点信息">
              <h1 id="front-title" className="sr-only">
                正在加载站点信息
              </h1>
              <span className="front-skeleton-line front-skeleton-title" />
              <span className="front-skeleton-line" />
            </div>
          ) : (
            <div className="front-failed" role="alert">
              <h1 id="front-title">站点信息暂时无法加载</h1>
              <p>可能是网络不稳定或服务正在维护，请稍后再试。</p>
              <button type="button" className="front-button" onClick={onRetry}>
                重新加载
              </button>
            </div>
          )}
        </section>

        {allocation ? (
          <div className="front-sections">
            <Downloads allocation={allocation} />
            <section className="front-card" aria-labelledby="front-about">
              <h2 id="front-about">关于我们</h2>
              <p className="front-about">{allocation.about || '暂无介绍，敬请期待。'}</p>
            </section>
            <section className="front-card" aria-labelledby="front-contact">
              <h2 id="front-contact">联系客服</h2>
              {allocation.qq ? (
                <p>
                  客服 QQ：<strong className="front-qq">{allocation.qq}</strong>
                </p>
              ) : allocation.service ? (
                <p>扫描下方二维码联系客服。</p>
              ) : (
                <p>暂未设置客服联系方式。</p>
              )}
              {allocation.service ? (
                <img
                  className="front-service"
                  src={allocation.service}
                  alt="客服二维码图片"
                  width={200}
                  height={200}
                  loading="lazy"
                />
              ) : null}
            </section>
          </div>
        ) : null}
      </main>

      <footer className="front-footer">
        <p>
          © {year} {allocation ? title : 'AppDesk'} · <AppLink href="/user/login">管理后台登录</AppLink>
          {allocation?.hasAgreement ? (
            <>
              {' · '}
              <a href="/legal/agreement">用户协议</a>
            </>
          ) : null}
          {allocation?.hasPrivacy ? (
            <>
              {' · '}
              <a href="/legal/privacy">隐私政策</a>
            </>
          ) : null}
        </p>
        {allocation?.icp || allocation?.police ? (
          <p className="front-beian">
            {allocation.icp ? (
              <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer">
                {allocation.icp}
              </a>
            ) : null}
            {allocation.police ? (
              <a href="https://beian.mps.gov.cn/" target="_blank" rel="noreferrer">
                {allocation.police}
              </a>
            ) : null}
          </p>
        ) : null}
      </footer>
    </div>
  );
}
