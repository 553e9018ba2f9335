import { queryOptions } from '@tanstack/react-query';
import type { Application } from '../../../../../shared/api';
import { isNotFound, type ApiClient } from '../../../lib/api/client';
import { FIRST_READ_PATHS } from '../../../lib/api/first-reads';
import { queryKeys } from '../../../lib/api/query-keys';

/** The caller's own application to the job; 404 when there is none. */
export const fetchOwnApplication = (api: ApiClient, jobId: string) => api.get<Application>(FIRST_READ_PATHS.ownApplication(jobId));

/** The worker's application to the job, null when they have not applied (the job page's loader and useOwnApplication). */
export const ownApplicationQueryOptions = (api: ApiClient, jobId: string) =>
  queryOptions({
    queryKey: queryKeys.ownApplication(jobId),
    queryFn: async (): Promise<Application | null> => {
      try {
        return await fetchOwnApplication(api, jobId);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  });
