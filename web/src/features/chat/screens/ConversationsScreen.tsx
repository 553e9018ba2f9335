import '@aws-amplify/ui-react/styles.css';
import '../chat.css';
import { Badge, SearchField } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { ConversationView } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { startConversation } from '../api/start-conversation';
import { chatKeys } from '../api/chat-keys';
import { useConversationList } from '../api/fetch-conversations';
import { Avatar } from '../../../lib/components/Avatar';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { StatusBadge } from '../../../lib/components/StatusBadge';
import { MESSAGES_PATH } from '../../../lib/navigation';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useNow } from '../../../lib/hooks/useNow';
import { useToast } from '../../../lib/toast/useToast';
import { formatRelativeTime } from '../../../lib/format';

/**
 * /real-time-messages (spec 2 §2): the caller's conversations, most recent first, searchable by
 * job title or the other person's name. Opened with `?job=` (and the poster's `&worker=`) it
 * first starts or reopens that conversation and goes to it: the links of applicant cards and
 * job pages.
 */
export default function ConversationsScreen() {
  const [params] = useSearchParams();
  const jobId = params.get('job');
  return (
    <div className="page chat-page">
      <PageHeading>Messages</PageHeading>
      {jobId ? <StartConversation jobId={jobId} workerId={params.get('worker')} /> : <ConversationList />}
    </div>
  );
}

function StartConversation({ jobId, workerId }: { jobId: string; workerId: string | null }) {
  const api = useApi();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const started = useRef(false);

  useEffect(() => {
    // Once per visit, even when development mode runs effects twice.
    if (started.current) return;
    started.current = true;
    startConversation(api, { jobId, ...(workerId ? { workerId } : {}) }).then(
      (conversation) => {
        void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
        void navigate(`${MESSAGES_PATH}/${conversation.id}`, { replace: true });
      },
      (error: unknown) => {
        toast.error(apiErrorText(error, MSG.applications.startConversationFailed));
        void navigate(MESSAGES_PATH, { replace: true });
      },
    );
  }, [api, jobId, workerId, navigate, toast, queryClient]);

  return <LoadingState label="Opening the conversation..." />;
}

function ConversationList() {
  const conversations = useConversationList();
  const [search, setSearch] = useState('');

  if (conversations.isPending) return <LoadingState label="Loading conversations..." />;
  if (conversations.isError) {
    return (
      <EmptyState title={apiErrorText(conversations.error, MSG.messaging.loadFailed)}>
        <button type="button" className="button button--secondary" onClick={() => void conversations.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  if (conversations.data.length === 0) {
    return (
      <EmptyState title={MSG.messaging.empty}>
        <p>Ask a question from a job&apos;s page or message an applicant to start one.</p>
        <Link to="/dashboard" className="button">
          Go to Dashboard
        </Link>
      </EmptyState>
    );
  }

  const words = search.trim().toLowerCase();
  const shown = conversations.data.filter(
    (conversation) => !words || conversation.jobTitle.toLowerCase().includes(words) || (conversation.otherParty?.name ?? '').toLowerCase().includes(words),
  );
  return (
    <>
      <SearchField
        label="Search conversations"
        labelHidden
        placeholder="Search by job title or name"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        onClear={() => setSearch('')}
      />
      {shown.length === 0 ? (
        <p className="chat-list__none">No conversations match &quot;{search.trim()}&quot;.</p>
      ) : (
        <ul className="chat-list" aria-label="Conversations">
          {shown.map((conversation) => (
            <ConversationRow key={conversation.id} conversation={conversation} />
          ))}
        </ul>
      )}
    </>
  );
}

function ConversationRow({ conversation }: { conversation: ConversationView }) {
  const { userId } = useAuth();
  const now = useNow(60_000);
  const name = conversation.otherParty?.name ?? 'Former user';
  const iAmPoster = conversation.posterId === userId;
  const last = conversation.lastMessage;
  return (
    <li>
      <Link to={`${MESSAGES_PATH}/${conversation.id}`} className={`chat-list__row${conversation.unreadCount ? ' chat-list__row--unread' : ''}`}>
        <Avatar name={name} imageUrl={conversation.otherParty?.profileImage ?? null} />
        <span className="chat-list__main">
          <span className="chat-list__top">
            <strong className="chat-list__name">{name}</strong>
            <time className="chat-list__time" dateTime={conversation.updatedAt}>
              {formatRelativeTime(conversation.updatedAt, now)}
            </time>
          </span>
          <span className="chat-list__job">
            {conversation.jobTitle}
            {conversation.jobStatus ? <StatusBadge status={conversation.jobStatus} /> : null}
          </span>
          <span className="chat-list__preview">
            {last ? `${last.senderId === userId ? 'You: ' : ''}${last.content}` : 'No messages yet'}
          </span>
        </span>
        <span className="chat-list__markers">
          {conversation.isBlocked ? <Badge variation="error">{iAmPoster ? MSG.messaging.workerBlocked : MSG.messaging.messagingBlocked}</Badge> : null}
          {conversation.unreadCount ? (
            <Badge variation="info" className="chat-list__unread">
              {conversation.unreadCount}
              <span className="visually-hidden"> unread</span>
            </Badge>
          ) : null}
        </span>
      </Link>
    </li>
  );
}
