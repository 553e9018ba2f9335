import { useEffect, useEffectEvent, useState } from 'react';
import type { ApiClient } from '../api/client';
import { useApi } from './useApi';

export type QueryState<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; error: unknown };
export type QueryResult<T> = QueryState<T> & { reload(): void };

type Settled<T> = { key: string } & ({ status: 'ready'; data: T } | { status: 'failed'; error: unknown });

/**
 * Loads one resource from the API and reloads it when `key` changes (null: do not load yet).
 * A result is remembered with the key it belongs to, so a stale answer is never shown for a new key.
 */
export function useApiQuery<T>(key: string | null, load: (api: ApiClient) => Promise<T>): QueryResult<T> {
  const api = useApi();
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [generation, setGeneration] = useState(0);
  const requestKey = key === null ? null : `${key}|${generation}`;
  const loadCurrent = useEffectEvent(() => load(api));

  useEffect(() => {
    if (requestKey === null) return;
    let active = true;
    loadCurrent().then(
      (data) => active && setSettled({ key: requestKey, status: 'ready', data }),
      (error: unknown) => active && setSettled({ key: requestKey, status: 'failed', error }),
    );
    return () => {
      active = false;
    };
  }, [requestKey]);

  const reload = () => setGeneration((current) => current + 1);
  if (settled === null || settled.key !== requestKey) return { status: 'loading', reload };
  return { ...settled, reload };
}
