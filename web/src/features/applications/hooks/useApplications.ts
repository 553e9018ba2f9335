import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Application, ApplicationsOfJob, CardStepAnswer } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError, apiErrorText } from '../../../lib/api/client';
import { OFFER_TEXTS } from '../../../../../shared/offers';
import type { ApplyRequest, ChangeOfferRequest, CounterAnswer } from '../../../../../shared/schemas/application';
import { answerCounter } from '../api/answer-counter';
import { applyToJob } from '../api/apply-to-job';
import { changeOffer } from '../api/change-offer';
import { counterOffer } from '../api/counter-offer';
import { decideApplication, type ApplicationDecision } from '../api/decide-application';
import { withdrawOffer } from '../api/withdraw-offer';
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
  /**
   * Accepts or rejects one applicant (confirmed by a toast); an offer is accepted at `amount`, the
   * one shown. Resolves whether it went through — or the card step an offer above the budget waits for.
   */
  decide(workerId: string, decision: ApplicationDecision, amount?: number): Promise<boolean | CardStepAnswer>;
  /** The poster's one counter-offer on a worker's offer. */
  counter(workerId: string, amount: number): Promise<boolean>;
}

/** Runs one call with its toasts: the success text, or the server's refusal (else `failure`); resolves whether it went through. */
async function withToasts(toast: ReturnType<typeof useToast>, call: () => Promise<unknown>, success: string, failure: string): Promise<boolean> {
  try {
    await call();
    toast.success(success);
    return true;
  } catch (error) {
    toast.error(apiErrorText(error, failure));
    return false;
  }
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

  const refetched = <T>(done: T): T => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.applicants(jobId) });
    return done;
  };
  return {
    query,
    async decide(workerId, decision, amount) {
      const text = amount !== undefined && decision === 'accept' ? { success: OFFER_TEXTS.offerAccepted, failure: OFFER_TEXTS.acceptFailed } : DECISION_TEXT[decision];
      let cardStep: CardStepAnswer | undefined;
      const done = await withToasts(
        toast,
        async () => {
          const answer = await decideApplication(api, jobId, workerId, decision, amount);
          // The bank wants the poster for the difference's charge: the same accept after the card step finishes it.
          if ('status' in answer && answer.status === 'card_needed') {
            cardStep = answer;
            throw new Error(answer.message);
          }
        },
        text.success,
        text.failure,
      );
      return cardStep ?? refetched(done);
    },
    async counter(workerId, amount) {
      return refetched(await withToasts(toast, () => counterOffer(api, jobId, workerId, amount), OFFER_TEXTS.counterSent, OFFER_TEXTS.counterFailed));
    },
  };
}

export interface OwnApplication {
  /** Undefined while loading; null when the worker has not applied. */
  application: Application | null | undefined;
  /** Applies with an optional message, or makes an offer (confirmed by a toast); resolves whether it went through. */
  apply(request: Partial<ApplyRequest>): Promise<boolean>;
  /** The worker's waiting offer: changed, withdrawn, or their answer to a counter-offer (issue 45). */
  changeOffer(request: ChangeOfferRequest): Promise<boolean>;
  withdrawOffer(): Promise<boolean>;
  answerCounter(answer: CounterAnswer): Promise<boolean>;
}

/** The signed-in worker's application to a job, and applying to it. */
export function useOwnApplication(jobId: string, enabled: boolean): OwnApplication {
  const api = useApi();
  const { refreshProfile } = useAuth();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({ ...ownApplicationQueryOptions(api, jobId), enabled });

  const ownKey = queryKeys.ownApplication(jobId);
  const keep = (application: Application | null) => queryClient.setQueryData(ownKey, application);
  return {
    application: query.isError ? null : query.data,
    changeOffer: (request) => withToasts(toast, async () => keep(await changeOffer(api, jobId, request)), OFFER_TEXTS.offerChanged, OFFER_TEXTS.changeFailed),
    withdrawOffer: () =>
      withToasts(
        toast,
        async () => {
          await withdrawOffer(api, jobId);
          keep(null);
        },
        OFFER_TEXTS.offerWithdrawn,
        OFFER_TEXTS.withdrawFailed,
      ),
    answerCounter: (answer) =>
      withToasts(toast, async () => keep(await answerCounter(api, jobId, answer)), answer === 'accept' ? OFFER_TEXTS.counterAccepted : OFFER_TEXTS.counterDeclined, OFFER_TEXTS.answerFailed),
    async apply(request) {
      try {
        keep(await applyToJob(api, jobId, request));
        toast.success(request.amount !== undefined ? OFFER_TEXTS.offerSent : MSG.applications.submitted);
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
