import { useEffect, useState } from 'react';
import type { Application, ApplicationsOfJob, WorkerApplication } from '../../../shared/api';
import { MSG } from '../../../shared/messages';
import { apiErrorText, isNotFound } from '../api/client';
import { applyToJob, decideApplication, fetchApplicationsOfJob, fetchOwnApplication, fetchWorkerApplications, type ApplicationDecision } from '../api/endpoints';
import { useApi } from './useApi';
import { useApiQuery, type QueryResult } from './useApiQuery';
import { useAuth } from './useAuth';
import { useToast } from './useToast';

const DECISION_TEXT: Record<ApplicationDecision, { success: string; failure: string }> = {
  accept: { success: MSG.applications.accepted, failure: MSG.applications.acceptFailed },
  reject: { success: MSG.applications.rejected, failure: MSG.applications.rejectFailed },
};

export interface JobApplicants {
  query: QueryResult<ApplicationsOfJob>;
  /** Accepts or rejects one applicant (confirmed by a toast); resolves whether it went through. */
  decide(workerId: string, decision: ApplicationDecision): Promise<boolean>;
}

/**
 * The poster's applicants of a job with their counts, and the decisions on them. `version`
 * changes when the job changed elsewhere (a push), so the list is read again.
 */
export function useJobApplicants(jobId: string, enabled: boolean, version: number): JobApplicants {
  const api = useApi();
  const toast = useToast();
  const query = useApiQuery(enabled ? `applications:${jobId}:${version}` : null, async (client) => {
    try {
      return await fetchApplicationsOfJob(client, jobId);
    } catch (error) {
      toast.error(MSG.applications.loadFailed);
      throw error;
    }
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
        query.reload();
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
export function useOwnApplication(jobId: string, enabled: boolean, version: number): OwnApplication {
  const api = useApi();
  const toast = useToast();
  const [submitted, setSubmitted] = useState<Application | null>(null);
  const query = useApiQuery(enabled ? `own-application:${jobId}:${version}` : null, async (client) => {
    try {
      return await fetchOwnApplication(client, jobId);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  });
  const loaded = query.status === 'ready' ? query.data : query.status === 'failed' ? null : undefined;

  return {
    application: submitted?.jobId === jobId && loaded === null ? submitted : loaded,
    async apply(message) {
      try {
        setSubmitted(await applyToJob(api, jobId, message));
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
  const { userId } = useAuth();
  const query = useApiQuery(userId ? `fresh-acceptances:${userId}` : null, async (client) => {
    const { items } = await fetchWorkerApplications(client);
    const shown = new Set(congratulatedIds());
    const since = Date.now() - DAY_MS;
    return items.filter(
      ({ application }) => application.status === 'accepted' && Date.parse(application.updatedAt) >= since && !shown.has(application.id),
    );
  });
  const items = query.status === 'ready' ? query.data : NONE;

  useEffect(() => {
    if (items.length === 0) return;
    const ids = new Set([...congratulatedIds(), ...items.map(({ application }) => application.id)]);
    sessionStorage.setItem(CONGRATULATED_KEY, JSON.stringify([...ids]));
  }, [items]);

  return items;
}
