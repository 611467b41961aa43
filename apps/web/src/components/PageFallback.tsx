/**
 * Shown while a page's chunk or the first navigation loads: a spinner drawn with SVG and CSS only
 * (antd's Spin would compute its CSS-in-JS styles on the main thread during the first load).
 * index.html shows the same markup before the scripts run; its styles (.ess-page-fallback) are
 * inline there, so the first paint needs no script.
 */
export function PageFallback() {
  return (
    <div className="ess-page-fallback" role="status" aria-label="Loading...">
      <svg viewBox="0 0 50 50" width="28" height="28" aria-hidden="true">
        <circle cx="25" cy="25" r="20" fill="none" stroke="currentColor" strokeWidth="5" strokeLinecap="round" strokeDasharray="90 150" />
      </svg>
    </div>
  );
}
