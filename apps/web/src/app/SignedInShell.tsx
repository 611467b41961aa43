import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { useState } from 'react';
import { ConsoleLayout } from './layout/ConsoleLayout.tsx';

/**
 * The providers only signed-in pages use, in the layout's chunk so the login page does not load
 * them: antd's App (the modal, notification and message hooks of App.useApp()) and TanStack
 * Query, with a fresh cache for each sign-in (signing out unmounts it, so nothing cached for one
 * user is shown to the next).
 */
export function SignedInShell() {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <AntApp>
      <QueryClientProvider client={queryClient}>
        <ConsoleLayout />
      </QueryClientProvider>
    </AntApp>
  );
}
