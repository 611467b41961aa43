import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { initLocale } from './platform/i18n/language.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
// antd's locale chunk and the language pack load before the first paint of text.
void initLocale().finally(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
