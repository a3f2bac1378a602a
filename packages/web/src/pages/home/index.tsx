import type { Allocation } from '@appdesk/contract/types';
import { AppLink } from '../../components/AppLink';

interface Props {
  allocation: Allocation | undefined;
  loading: boolean;
  onRetry: () => void;
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
              ) : (
                <p>暂未设置客服 QQ。</p>
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
        </p>
      </footer>
    </div>
  );
}
