/** How platform code (request layer, live events) changes the page without importing the router. */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

const browserNavigate: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

let current: Navigate = browserNavigate;

/** The app installs the router's navigate; tests install a spy. `null` restores the default. */
export function setNavigator(next: Navigate | null): void {
  current = next ?? browserNavigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  current(to, options);
}

export const LOGIN_PATH = '/login';
