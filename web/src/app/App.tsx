import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { RuntimeConfig } from '../../../shared/runtime-config';
import { createQueryClient } from '../lib/api/query-client';
import { AuthProvider, restoreKeptSession, type RestoredSession } from '../lib/auth/useAuth';
import { ConfigContext } from '../lib/useConfig';
import { useLiveQuerySync } from '../features/jobs';
import { LiveUpdatesProvider } from '../lib/live/useLiveUpdates';
import { usePaymentAccountSync } from '../features/payments';
import { ToastProvider } from '../lib/toast/useToast';
import { useUserScopedCache } from './useUserScopedCache';
import { createAppRouter } from './router';
import { createAppApiClient } from '../lib/api/useApi';
import { dropEarlyReads } from '../lib/api/early-reads';

interface AppStart {
  config: RuntimeConfig;
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
  /** The kept session's restore, null when none is kept. */
  restoring: Promise<RestoredSession> | null;
}

/**
 * What the app starts with, made as soon as /config.json is read and before React first renders
 * the app (a long task on a phone): the router's loader starts the first screen's reads and the
 * kept session's profile is read now, beside that render instead of after it.
 */
export function startApp(config: RuntimeConfig): AppStart {
  const queryClient = createQueryClient();
  const api = createAppApiClient(config.apiUrl);
  return { config, queryClient, router: createAppRouter(queryClient, api), restoring: restoreKeptSession(api) };
}

export function App({ config, queryClient, router, restoring }: AppStart) {
  // By the first commit, startApp's reads have adopted what the early entry sent for them.
  useEffect(dropEarlyReads, []);
  return (
    <StrictMode>
      <ConfigContext.Provider value={config}>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <AuthProvider restoring={restoring}>
              <UserScopedCache>
                <LiveUpdatesProvider>
                  <LiveQuerySync />
                  <PaymentAccountSync />
                  <RouterProvider router={router} />
                </LiveUpdatesProvider>
              </UserScopedCache>
            </AuthProvider>
          </ToastProvider>
        </QueryClientProvider>
      </ConfigContext.Provider>
    </StrictMode>
  );
}

function LiveQuerySync() {
  useLiveQuerySync();
  return null;
}

function PaymentAccountSync() {
  usePaymentAccountSync();
  return null;
}

function UserScopedCache({ children }: { children: ReactNode }) {
  useUserScopedCache();
  return children;
}
