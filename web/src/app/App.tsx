import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState, type ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { RuntimeConfig } from '../../../shared/runtime-config';
import { createQueryClient } from '../lib/api/query-client';
import { AuthProvider } from '../lib/auth/useAuth';
import { ConfigContext } from '../lib/useConfig';
import { useLiveQuerySync } from '../features/jobs';
import { LiveUpdatesProvider } from '../lib/live/useLiveUpdates';
import { usePaymentAccountSync } from '../features/payments';
import { ToastProvider } from '../lib/toast/useToast';
import { useUserScopedCache } from './useUserScopedCache';
import { createAppRouter } from './router';
import { createAppApiClient } from '../lib/api/useApi';

export function App({ config }: { config: RuntimeConfig }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient, createAppApiClient(config.apiUrl)));
  return (
    <StrictMode>
      <ConfigContext.Provider value={config}>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <AuthProvider>
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
