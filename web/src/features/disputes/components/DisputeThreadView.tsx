import { useState, type KeyboardEvent } from 'react';
import type { DisputeMessage } from '../../../../../shared/api';
import { disputeResolutionMessage, isDisputeOpen } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { useAuth } from '../../../lib/auth/useAuth';
import { useDisputeThread } from '../api/fetch-dispute-thread';
import { useSendDisputeMessage } from '../hooks/useDisputes';
import { useToast } from '../../../lib/toast/useToast';
import { LoadingState } from '../../../lib/components/LoadingState';

interface DisputeThreadViewProps {
  disputeId: string;
  /** The admin's view: a taller box (600 px, spec 2 §2) and the admin's own texts. */
  asAdmin?: boolean;
}

function senderLabel(message: DisputeMessage, viewerId: string | null): string {
  if (message.isAdmin) return 'Admin';
  return message.senderId === viewerId ? 'You' : 'Other party';
}

/**
 * A dispute's messages, oldest first, with a reply box: Enter sends, Shift+Enter adds a line;
 * read-only once resolved or closed (the server refuses too). New messages arrive live.
 */
export function DisputeThreadView({ disputeId, asAdmin = false }: DisputeThreadViewProps) {
  const { userId } = useAuth();
  const toast = useToast();
  const thread = useDisputeThread(disputeId);
  const send = useSendDisputeMessage(disputeId);
  const [draft, setDraft] = useState('');
  const open = thread.data ? isDisputeOpen(thread.data.dispute.status) : false;

  const submit = () => {
    const message = draft.trim();
    if (!message || send.isPending) return;
    send.mutate(message, {
      onSuccess: () => {
        setDraft('');
        if (!asAdmin) toast.success(MSG.disputes.responseSent);
      },
      onError: () => toast.error(asAdmin ? MSG.disputes.failedToSendMessage : MSG.disputes.failedToSendResponse),
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  };

  if (thread.isPending) return <LoadingState label="Loading messages..." />;
  if (thread.isError) return <p className="field__error">{MSG.disputes.failedToLoadMessages}</p>;
  const { dispute, messages } = thread.data;
  return (
    <div className={asAdmin ? 'dispute-thread dispute-thread--admin' : 'dispute-thread'}>
      <ol className="dispute-thread__messages" aria-label="Dispute messages" aria-live="polite">
        {messages.length === 0 ? <li className="muted">No messages yet.</li> : null}
        {messages.map((message) => (
          <li key={message.id} className={message.isAdmin ? 'dispute-message dispute-message--admin' : 'dispute-message'}>
            <span className="dispute-message__sender">{senderLabel(message, userId)}</span>
            <span className="preserve-lines break-anywhere">{message.message}</span>
            <time className="muted" dateTime={message.createdAt}>
              {new Date(message.createdAt).toLocaleString()}
            </time>
          </li>
        ))}
      </ol>
      {dispute.resolution ? (
        <p className="note">
          <strong>Resolution:</strong> {dispute.resolution}
        </p>
      ) : null}
      {dispute.moneyOutcome ? <p className="note">{disputeResolutionMessage(dispute.jobTitle, dispute.moneyOutcome)}</p> : null}
      <label className="visually-hidden" htmlFor={`reply-${disputeId}`}>
        Reply
      </label>
      <textarea
        id={`reply-${disputeId}`}
        className="dispute-thread__reply"
        rows={2}
        value={draft}
        disabled={!open}
        placeholder={open ? 'Type a message. Enter sends, Shift+Enter adds a line.' : 'This dispute is closed.'}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="button" className="button button--small" disabled={!open || !draft.trim() || send.isPending} onClick={submit}>
        Send
      </button>
    </div>
  );
}
