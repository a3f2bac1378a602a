/** The large page-loading spinner (plain CSS, no antd): shown while a page chunk loads. */
export function BigSpinner({ text = '加载中…' }: { text?: string }) {
  return (
    <div className="boot" role="status" aria-live="polite">
      <span className="boot-spinner" aria-hidden="true" />
      <span className="boot-text">{text}</span>
    </div>
  );
}
