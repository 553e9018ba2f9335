import { StrictMode } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { RuntimeConfig } from '../../shared/runtime-config';
import { AuthProvider } from './hooks/useAuth';
import { ConfigContext } from './hooks/useConfig';
import { LiveUpdatesProvider } from './hooks/useLiveUpdates';
import { ToastProvider } from './hooks/useToast';
import { router } from './router';

export function App({ config }: { config: RuntimeConfig }) {
  return (
    <StrictMode>
      <ConfigContext.Provider value={config}>
        <ToastProvider>
          <AuthProvider>
            <LiveUpdatesProvider>
              <RouterProvider router={router} />
            </LiveUpdatesProvider>
          </AuthProvider>
        </ToastProvider>
      </ConfigContext.Provider>
    </StrictMode>
  );
}
