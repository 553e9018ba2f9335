import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import type { Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';

/** A table's rows, 50 a page, with 'Load more' following the server's cursor. */
export function useAdminPages<T>(queryKey: QueryKey, fetchPage: (api: ApiClient, cursor: string | null) => Promise<Page<T>>) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(api, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, rows: query.data?.pages.flatMap((page) => page.items) ?? [] };
}
