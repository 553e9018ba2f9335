import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DisputeThread } from '../../../../../shared/api';
import { disputeKeys } from '../api/dispute-keys';
import { postDisputeMessage } from '../api/post-dispute-message';
import { useApi } from '../../../lib/api/useApi';
import { useLiveReconnect, useLiveUpdates } from '../../../lib/live/useLiveUpdates';

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
