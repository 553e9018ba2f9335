import { useState } from 'react';
import type { ApiClient } from '../api/client';
import { useApiQuery } from './useApiQuery';

export interface ApiList<T> {
  phase: 'loading' | 'ready' | 'failed';
  items: T[];
  reload(): void;
  /** Replaces the item with the same id in place, or puts a new one first (lists are newest first). */
  upsert(item: T): void;
  remove(id: string): void;
}

/**
 * A list loaded from the API (see useApiQuery) that the screen then keeps current itself: with
 * what its own calls answered and what the server pushes, without reading the whole list again.
 * Local changes belong to the load they were made on; a reload starts from the server's list.
 */
export function useApiList<T>(key: string | null, load: (api: ApiClient) => Promise<T[]>, idOf: (item: T) => string): ApiList<T> {
  const query = useApiQuery(key, load);
  const loaded = query.status === 'ready' ? query.data : null;
  const [edited, setEdited] = useState<{ base: T[] | null; items: T[] }>({ base: null, items: [] });
  const items = loaded === null ? [] : edited.base === loaded ? edited.items : loaded;

  function edit(change: (items: T[]) => T[]): void {
    if (loaded === null) return;
    setEdited((current) => ({ base: loaded, items: change(current.base === loaded ? current.items : loaded) }));
  }

  return {
    phase: query.status === 'loading' ? 'loading' : query.status === 'failed' ? 'failed' : 'ready',
    items,
    reload: query.reload,
    upsert: (item) =>
      edit((current) =>
        current.some((other) => idOf(other) === idOf(item))
          ? current.map((other) => (idOf(other) === idOf(item) ? item : other))
          : [item, ...current],
      ),
    remove: (id) => edit((current) => current.filter((item) => idOf(item) !== id)),
  };
}
