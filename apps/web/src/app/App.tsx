import { ConfigProvider } from 'antd';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { FeedbackBridge } from '../components/FeedbackBridge.tsx';
import { FullScreenLoading } from '../components/FullScreenLoading.tsx';
import { useUiLocaleStore } from '../platform/i18n/language.ts';
import { createAppRouter } from './router.tsx';
import { THEME } from './theme.ts';

/**
 * Providers of every page: antd's ConfigProvider (locale and direction follow the UI language),
 * the request layer's toasts and spinner, the router. What only signed-in pages need (antd's App,
 * TanStack Query) is in SignedInShell, loaded with the layout: the login page stays light.
 */
export function App() {
  const antdLocale = useUiLocaleStore((s) => s.antd);
  const direction = useUiLocaleStore((s) => s.direction);
  const [router] = useState(createAppRouter);
  return (
    <ConfigProvider locale={antdLocale} direction={direction} theme={THEME}>
      <FeedbackBridge />
      <RouterProvider router={router} />
      <FullScreenLoading />
    </ConfigProvider>
  );
}
