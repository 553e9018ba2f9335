import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './client';

/**
 * Server state in the web app lives in one TanStack Query cache. Live events patch or
 * invalidate its entries (see useLiveUpdates users) instead of each hook keeping its own copy,
 * so the socket is the reason data is fresh and `staleTime` only covers a missed event.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again; anything else (network, 5xx) gets one retry.
        retry: (failures, error) => failures < 1 && !(error instanceof ApiRequestError && error.status < 500),
      },
    },
  });
}
