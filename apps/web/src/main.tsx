import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { preloadFirstRoute } from './app/router.tsx';
import { applyStaticStyles } from './app/static-style.ts';
import { initLocale } from './platform/i18n/language.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
preloadFirstRoute(window.location.pathname, !!localStorage.getItem(TOKEN_STORAGE_KEY));
// antd's locale chunk, the language pack and antd's prebuilt stylesheet load before the first
// paint of text. The first render is a transition, so React yields to the browser every few
// milliseconds instead of blocking the main thread for the whole first render (Total Blocking Time).
void Promise.allSettled([initLocale(), applyStaticStyles()]).finally(() => {
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
