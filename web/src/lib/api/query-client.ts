import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './client';

/**
 * Server state in the web app lives in one TanStack Query cache. Live events patch or
 * invalidate its entries (see useLiveUpdates users) instead of each hook keeping its own copy,
 * so the socket is the reason data is fresh and `staleTime` only covers a missed event.
 */
/** A Retry-After longer than this is not waited for in full: the read is retried after this, then its error shows. */
const MAX_RETRY_AFTER_MS = 10_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again, unless the server said when to (a 429 with
        // Retry-After); anything else (network, 5xx) gets one retry.
        retry: (failures, error) => failures < 1 && !(error instanceof ApiRequestError && error.status < 500 && error.retryAfterSeconds === undefined),
        // As late as the server asked (a 503 while a dependency is busy), within reason; else TanStack's backoff.
        retryDelay: (failures, error) =>
          error instanceof ApiRequestError && error.retryAfterSeconds !== undefined
            ? Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS)
            : Math.min(1000 * 2 ** failures, 30_000),
      },
    },
  });
}
