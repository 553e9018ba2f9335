import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Application, ApplicationsOfJob } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError, apiErrorText } from '../../../lib/api/client';
import { applyToJob } from '../api/apply-to-job';
import { decideApplication, type ApplicationDecision } from '../api/decide-application';
import { fetchApplicationsOfJob } from '../api/fetch-applications-of-job';
import { ownApplicationQueryOptions } from '../api/fetch-own-application';
import { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';

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
  const { refreshProfile } = useAuth();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({ ...ownApplicationQueryOptions(api, jobId), enabled });

  return {
    application: query.isError ? null : query.data,
    async apply(message) {
      try {
        queryClient.setQueryData(queryKeys.ownApplication(jobId), await applyToJob(api, jobId, message));
        toast.success(MSG.applications.submitted);
        return true;
      } catch (error) {
        toast.error(apiErrorText(error, MSG.applications.submitFailed));
        // The payment account changed since the profile was read: the panel then shows the way to it.
        if (error instanceof ApiRequestError && error.message === MSG.payments.accountNeededToApply) void refreshProfile();
        return false;
      }
    },
  };
}
