import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisputeThread } from '../../../../../shared/api';
import { fetchDisputeCenter } from '../api/fetch-dispute-center';
import { fetchDisputeThread } from '../api/fetch-dispute-thread';
import { fetchMyDisputes } from '../api/fetch-my-disputes';
import { postDisputeMessage } from '../api/post-dispute-message';
import { useApi } from '../../../lib/api/useApi';
import { useLiveReconnect, useLiveUpdates } from '../../../lib/live/useLiveUpdates';

/** The cache keys of dispute data; every dispute query starts with 'disputes'. */
export const disputeKeys = {
  all: ['disputes'] as const,
  mine: ['disputes', 'mine'] as const,
  thread: (disputeId: string) => ['disputes', 'thread', disputeId] as const,
  center: (jobId: string) => ['disputes', 'center', jobId] as const,
  admin: ['disputes', 'admin'] as const,
};

/** The disputes where the signed-in user is reporter or reported, newest first. */
export function useMyDisputes() {
  const api = useApi();
  return useQuery({ queryKey: disputeKeys.mine, queryFn: async () => (await fetchMyDisputes(api)).items });
}

/** One dispute and its thread, oldest first. */
export function useDisputeThread(disputeId: string) {
  const api = useApi();
  return useQuery({ queryKey: disputeKeys.thread(disputeId), queryFn: () => fetchDisputeThread(api, disputeId) });
}

/** What the Dispute Center shows for a job. */
export function useDisputeCenter(jobId: string) {
  const api = useApi();
  return useQuery({ queryKey: disputeKeys.center(jobId), queryFn: () => fetchDisputeCenter(api, jobId) });
}

/** Posts in a thread; the sent message joins the cached thread at once (the live echo is then a no-op). */
export function useSendDisputeMessage(disputeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => postDisputeMessage(api, disputeId, message),
    onSuccess: (message) => queryClient.setQueryData<DisputeThread>(disputeKeys.thread(disputeId), (thread) => withMessage(thread, message)),
  });
}

function withMessage(thread: DisputeThread | undefined, message: DisputeThread['messages'][number]): DisputeThread | undefined {
  if (!thread || thread.messages.some((known) => known.id === message.id)) return thread;
  return { ...thread, messages: [...thread.messages, message] };
}

/**
 * Live dispute events keep the cache fresh (spec 2 §4): a new message joins its open thread; a
 * changed dispute, or a dispute notice (filed, resolved), refreshes every dispute view, as
 * does a reconnect (pushes may have been missed meanwhile).
 */
export function useDisputeLiveUpdates(): void {
  const queryClient = useQueryClient();
  useLiveReconnect(() => void queryClient.invalidateQueries({ queryKey: disputeKeys.all }));
  useLiveUpdates((message) => {
    if (message.type === 'dispute.message') {
      queryClient.setQueryData<DisputeThread>(disputeKeys.thread(message.message.disputeId), (thread) => withMessage(thread, message.message));
    } else if (message.type === 'dispute.updated' || (message.type === 'notification' && message.notification.type === 'dispute_update')) {
      void queryClient.invalidateQueries({ queryKey: disputeKeys.all });
    }
  });
}
