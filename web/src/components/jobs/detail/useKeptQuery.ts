import { useState } from 'react';
import type { ApiClient } from '../../../api/client';
import { useApiQuery, type QueryResult } from '../../../hooks/useApiQuery';

/**
 * useApiQuery that keeps showing the last answer for the same key while it reloads, so that a
 * pushed change refreshes the page in place instead of swapping it for a spinner (and losing
 * what was being typed).
 */
export function useKeptQuery<T>(key: string, load: (api: ApiClient) => Promise<T>): QueryResult<T> {
  const query = useApiQuery(key, load);
  const [kept, setKept] = useState<{ key: string; data: T } | null>(null);
  if (query.status === 'ready' && (kept?.key !== key || kept.data !== query.data)) setKept({ key, data: query.data });
  if (query.status === 'loading' && kept?.key === key) return { status: 'ready', data: kept.data, reload: query.reload };
  return query;
}
