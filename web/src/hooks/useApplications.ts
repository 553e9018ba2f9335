import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Application, ApplicationsOfJob, WorkerApplication } from '../../../shared/api';
import { MSG } from '../../../shared/messages';
import { apiErrorText, isNotFound } from '../api/client';
import { applyToJob, decideApplication, fetchApplicationsOfJob, fetchOwnApplication, fetchWorkerApplications, type ApplicationDecision } from '../api/endpoints';
import { queryKeys } from '../api/query-keys';
import { useApi } from './useApi';
import { useAuth } from './useAuth';
import { useToast } from './useToast';

const DECISION_TEXT: Record<ApplicationDecision, { success: string; failure: string }> = {
  accept: { success: MSG.applications.accepted, failure: MSG.applications.acceptFailed },
  reject: { success: MSG.applications.rejected, failure: MSG.applications.rejectFailed },
};

export interface JobApplicants {
  query: UseQueryResult<ApplicationsOfJob>;
  /** Accepts or rejects one applicant (confirmed by a toast); resolves whether it went through. */
  decide(workerId: string, decision: ApplicationDecision): Promise<boolean>;
}

/** The poster's applicants of a job with their counts, and the decisions on them. */
export function useJobApplicants(jobId: string, enabled: boolean): JobApplicants {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.applicants(jobId),
    queryFn: async () => {
      try {
        return await fetchApplicationsOfJob(api, jobId);
      } catch (error) {
        toast.error(MSG.applications.loadFailed);
        throw error;
      }
    },
    enabled,
  });

  return {
    query,
    async decide(workerId, decision) {
      try {
        await decideApplication(api, jobId, workerId, decision);
        toast.success(DECISION_TEXT[decision].success);
        return true;
      } catch (error) {
        toast.error(apiErrorText(error, DECISION_TEXT[decision].failure));
        return false;
      } finally {
        void queryClient.invalidateQueries({ queryKey: queryKeys.applicants(jobId) });
      }
    },
  };
}

export interface OwnApplication {
  /** Undefined while loading; null when the worker has not applied. */
  application: Application | null | undefined;
  /** Applies with an optional message (confirmed by a toast); resolves whether it went through. */
  apply(message: string): Promise<boolean>;
}

/** The signed-in worker's application to a job, and applying to it. */
export function useOwnApplication(jobId: string, enabled: boolean): OwnApplication {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.ownApplication(jobId),
    queryFn: async () => {
      try {
        return await fetchOwnApplication(api, jobId);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    enabled,
  });

  return {
    application: query.isError ? null : query.data,
    async apply(message) {
      try {
        queryClient.setQueryData(queryKeys.ownApplication(jobId), await applyToJob(api, jobId, message));
        toast.success(MSG.applications.submitted);
        return true;
      } catch (error) {
        toast.error(apiErrorText(error, MSG.applications.submitFailed));
        return false;
      }
    },
  };
}

const DAY_MS = 24 * 3600 * 1000;
const CONGRATULATED_KEY = 'oddjobs.congratulated-applications';

function congratulatedIds(): string[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(CONGRATULATED_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

const NONE: WorkerApplication[] = [];

/**
 * The worker's applications accepted in the last 24 hours that this session has not celebrated
 * yet; once loaded they count as celebrated, so each shows once per session (spec 2 §9).
 */
export function useFreshAcceptances(): WorkerApplication[] {
  const api = useApi();
  const { userId } = useAuth();
  const query = useQuery({
    queryKey: ['fresh-acceptances'],
    enabled: userId !== null,
    // Counted as celebrated once loaded: reading again must not bring them back this session.
    staleTime: Infinity,
    queryFn: async () => {
    const { items } = await fetchWorkerApplications(api);
    const shown = new Set(congratulatedIds());
    const since = Date.now() - DAY_MS;
    return items.filter(
      ({ application }) => application.status === 'accepted' && Date.parse(application.updatedAt) >= since && !shown.has(application.id),
    );
    },
  });
  const items = query.data ?? NONE;

  useEffect(() => {
    if (items.length === 0) return;
    const ids = new Set([...congratulatedIds(), ...items.map(({ application }) => application.id)]);
    sessionStorage.setItem(CONGRATULATED_KEY, JSON.stringify([...ids]));
  }, [items]);

  return items;
}
