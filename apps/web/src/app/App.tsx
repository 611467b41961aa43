import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { FeedbackBridge } from '../components/FeedbackBridge.tsx';
import { FullScreenLoading } from '../components/FullScreenLoading.tsx';
import { useUiLocaleStore } from '../platform/i18n/language.ts';
import { createAppRouter } from './router.tsx';

/** Providers: antd (locale and direction follow the UI language), TanStack Query, the router. */
export function App() {
  const antdLocale = useUiLocaleStore((s) => s.antd);
  const direction = useUiLocaleStore((s) => s.direction);
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  const [router] = useState(createAppRouter);
  return (
    <ConfigProvider locale={antdLocale} direction={direction} theme={{ token: { colorPrimary: '#13a36b' } }}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
        <FullScreenLoading />
      </AntApp>
    </ConfigProvider>
  );
}
