import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/** Catches a failed or timed-out chunk load (and render crashes) and offers a retry. */
export class ChunkBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    const timedOut = this.state.error.name === 'ChunkTimeoutError';
    return (
      <div className="boot" role="alert">
        <div className="boot-error">
          <h1>{timedOut ? '页面加载超时' : '页面加载失败'}</h1>
          <p>
            {timedOut
              ? '网络较慢，页面资源在 120 秒内没有加载完成。'
              : '页面资源没有加载成功，可能是网络中断或网站刚刚更新。'}
            请检查网络后重试。
          </p>
          <button type="button" className="boot-button" onClick={() => window.location.reload()}>
            重新加载
          </button>
        </div>
      </div>
    );
  }
}
