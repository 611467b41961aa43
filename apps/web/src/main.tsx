import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { preloadFirstRoute } from './app/router.tsx';
import { initLocale } from './platform/i18n/language.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
preloadFirstRoute(window.location.pathname, !!localStorage.getItem(TOKEN_STORAGE_KEY));
// antd's locale chunk and the language pack load before the first paint of text. The first
// render is a transition, so React yields to the browser every few milliseconds instead of
// blocking the main thread for the whole first render (Total Blocking Time).
void initLocale().finally(() => {
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
