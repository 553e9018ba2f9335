import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from './client';

/**
 * What a route reads on entry, put into the query cache from the same `queryOptions` its
 * screen's hooks use (`queryClient.ensureQueryData`), so the requests start with the route's
 * chunk instead of after the screen renders. `params` are the route's path parameters.
 */
export type ClientLoader = (queryClient: QueryClient, api: ApiClient, params: Readonly<Record<string, string | undefined>>) => Promise<unknown>;
