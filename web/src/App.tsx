import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState, type ReactNode } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { RuntimeConfig } from '../../shared/runtime-config';
import { createQueryClient } from './api/query-client';
import { AuthProvider } from './hooks/useAuth';
import { ConfigContext } from './hooks/useConfig';
import { useLiveQuerySync } from './hooks/useLiveQuerySync';
import { LiveUpdatesProvider } from './hooks/useLiveUpdates';
import { usePaymentAccountSync } from './hooks/usePaymentAccount';
import { ToastProvider } from './hooks/useToast';
import { useUserScopedCache } from './hooks/useUserScopedCache';
import { router } from './router';

export function App({ config }: { config: RuntimeConfig }) {
  const [queryClient] = useState(createQueryClient);
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
