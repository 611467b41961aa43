import { LOGIN_PATH } from '../platform/navigation.ts';
import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { useT } from '../platform/i18n/useT.ts';

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

/**
 * The layout's header bar (its place, the menu button's room and the console's title) over the
 * spinner, while a signed-in page's first navigation and the layout's chunks load. index.html
 * draws the same before any script has run (its inline styles, .ess-boot-*), and ConsoleLayout's
 * header takes its place at the same size: a visitor sees the console's frame at the first paint
 * instead of a blank page with a spinner, and nothing moves when the real header arrives.
 */
export function ShellFallback() {
  const t = useT();
  return (
    <div className="ess-boot">
      <header className="ess-boot-header">
        <span className="ess-boot-button" />
        <h1 className="ess-boot-title">{t('储能运维平台')}</h1>
      </header>
      <PageFallback />
    </div>
  );
}

/** Whether the first page of this visit is a signed-in one: a token is stored and it is not the login page. */
export const signedInVisit = (pathname: string): boolean => {
  try {
    return pathname !== LOGIN_PATH && !!localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return false;
  }
};

/** The first navigation's fallback: the console's frame on a signed-in page, else the spinner alone. */
export function FirstLoadFallback() {
  return signedInVisit(window.location.pathname) ? <ShellFallback /> : <PageFallback />;
}
