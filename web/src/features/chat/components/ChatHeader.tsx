import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ChatMessage, ConversationView } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { setWorkerBlocked } from '../api/set-worker-blocked';
import { chatKeys } from '../api/chat-keys';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useNow } from '../../../lib/hooks/useNow';
import { useToast } from '../../../lib/toast/useToast';
import { formatRelativeTime } from '../../../lib/format';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { PageHeading } from '../../../lib/components/PageHeading';
import { StatusBadge } from '../../../lib/components/StatusBadge';
import { RatingSummary } from '../../reviews';
import { MESSAGES_PATH } from '../../../lib/navigation';
import { Avatar } from '../../../lib/components/Avatar';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';

/**
 * The chat's header: the other person with their rating and last activity, the job with its
 * status, View Job, and for the poster Accept Worker (while open) and block/unblock.
 */
export function ChatHeader({ conversation, messages }: { conversation: ConversationView; messages: readonly ChatMessage[] }) {
  const { userId } = useAuth();
  const now = useNow(60_000);
  const other = conversation.otherParty;
  const name = other?.name ?? 'Former user';
  const isPoster = conversation.posterId === userId;
  const lastFromOther = messages.findLast((message) => message.senderId !== userId);
  return (
    <header className="chat__header">
      <Link to={MESSAGES_PATH} className="chat__back">
        <span aria-hidden="true">←</span> All messages
      </Link>
      <div className="chat__person">
        <Avatar name={name} imageUrl={other?.profileImage ?? null} />
        <div>
          <PageHeading title={`${name} · Messages`} className="chat__name">
            {name}
          </PageHeading>
          <div className="chat__meta">
            {other ? <IdentityBadge verified={other.identityVerified} /> : null}
            {other ? <RatingSummary rating={other.rating} reviewCount={other.reviewCount} /> : null}
            <span>{lastFromOther ? `Last active ${formatRelativeTime(lastFromOther.createdAt, now)}` : 'No messages from them yet'}</span>
          </div>
        </div>
      </div>
      <div className="chat__job">
        <span className="chat__job-title">{conversation.jobTitle}</span>
        {conversation.jobStatus ? <StatusBadge status={conversation.jobStatus} /> : null}
        <div className="button-row">
          <Link to={`/jobs/${conversation.jobId}`} className="button button--small button--secondary">
            View Job
          </Link>
          {isPoster && conversation.jobStatus === 'open' ? (
            <Link to={`/jobs/${conversation.jobId}`} className="button button--small">
              Accept Worker
            </Link>
          ) : null}
          {isPoster && !conversation.isClosed ? <BlockToggle conversation={conversation} /> : null}
        </div>
      </div>
    </header>
  );
}

function BlockToggle({ conversation }: { conversation: ConversationView }) {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function toggle(blocked: boolean): Promise<void> {
    setBusy(true);
    try {
      await setWorkerBlocked(api, conversation.id, blocked);
      toast.success(blocked ? MSG.messaging.blocked : MSG.messaging.unblocked);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: chatKeys.detail(conversation.id) }),
        queryClient.invalidateQueries({ queryKey: chatKeys.list() }),
      ]);
    } catch (error) {
      toast.error(apiErrorText(error, blocked ? MSG.messaging.blockFailed : MSG.messaging.unblockFailed));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  if (conversation.isBlocked) {
    return (
      <button type="button" className="button button--small button--secondary" disabled={busy} onClick={() => void toggle(false)}>
        Unblock worker
      </button>
    );
  }
  return (
    <>
      <button type="button" className="button button--small button--danger-outline" disabled={busy} onClick={() => setConfirming(true)}>
        Block worker
      </button>
      {confirming ? (
        <ConfirmDialog title="Block this worker?" confirmLabel="Block worker" busy={busy} onConfirm={() => void toggle(true)} onCancel={() => setConfirming(false)}>
          They will not be able to message you about this job until you unblock them.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
