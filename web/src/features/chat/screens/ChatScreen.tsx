import '@aws-amplify/ui-react/styles.css';
import '../chat.css';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { ConversationDetail } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError, apiErrorText, isNotFound } from '../../../lib/api/client';
import { fetchMessages } from '../api/fetch-messages';
import { markConversationRead } from '../api/mark-conversation-read';
import { sendChatMessage } from '../api/send-chat-message';
import { mergeIntoConversation, patchListedConversation, setOpenConversation } from '../api/chat-cache';
import { chatKeys } from '../api/chat-keys';
import { useConversationDetail } from '../api/fetch-conversation';
import { ChatHeader } from '../components/ChatHeader';
import { MessageComposer } from '../components/MessageComposer';
import { MessageThread, type OutgoingMessage } from '../components/MessageThread';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';
import { MESSAGES_PATH } from '../../../lib/navigation';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';

/** /real-time-messages/:conversationId (spec 2 §2): one conversation, live. */
export default function ChatScreen() {
  const { conversationId = '' } = useParams();
  const detail = useConversationDetail(conversationId);

  useEffect(() => {
    setOpenConversation(conversationId);
    return () => setOpenConversation(null);
  }, [conversationId]);

  if (detail.isPending) return <LoadingState label="Loading conversation..." />;
  if (detail.isError) {
    return (
      <div className="page">
        <EmptyState title={isNotFound(detail.error) ? MSG.messaging.conversationNotFound : apiErrorText(detail.error, MSG.messaging.messagesLoadFailed)}>
          <Link to={MESSAGES_PATH} className="button button--secondary">
            Back to Messages
          </Link>
        </EmptyState>
      </div>
    );
  }
  return <Conversation key={conversationId} detail={detail.data} />;
}

function Conversation({ detail }: { detail: ConversationDetail }) {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  const { conversation, messages } = detail;
  const id = conversation.id;
  // Messages on their way: shown at once, kept with their id when they fail, so a retry cannot double them.
  const [outbox, setOutbox] = useState<OutgoingMessage[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);

  const unreadFromOther = messages.some((message) => message.senderId !== userId && !message.read);
  const markRead = useCallback(async () => {
    if (document.visibilityState !== 'visible') return;
    try {
      await markConversationRead(api, id);
    } catch {
      return; // Still unread: the next visit or message tries again.
    }
    queryClient.setQueryData<ConversationDetail>(chatKeys.detail(id), (current) =>
      current && { ...current, messages: current.messages.map((message) => (message.senderId !== userId ? { ...message, read: true } : message)) },
    );
    patchListedConversation(queryClient, id, (listed) => ({ ...listed, unreadCount: 0 }));
    void queryClient.invalidateQueries({ queryKey: chatKeys.unread() });
  }, [api, id, queryClient, userId]);

  useEffect(() => {
    if (unreadFromOther || conversation.unreadCount > 0) void markRead();
    const onVisible = () => void markRead();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [unreadFromOther, conversation.unreadCount, markRead]);

  async function send(outgoing: Pick<OutgoingMessage, 'id' | 'content'>): Promise<void> {
    const entry: OutgoingMessage = { ...outgoing, status: 'sending', createdAt: new Date().toISOString() };
    setOutbox((current) => [...current.filter((message) => message.id !== entry.id), entry]);
    try {
      const { message, questionSent } = await sendChatMessage(api, id, outgoing);
      mergeIntoConversation(queryClient, id, [message]);
      setOutbox((current) => current.filter((pending) => pending.id !== message.id));
      if (questionSent) toast.success(MSG.applications.questionSent);
    } catch (error) {
      const text = apiErrorText(error, MSG.messaging.sendFailed);
      setOutbox((current) => current.map((pending) => (pending.id === entry.id ? { ...pending, status: 'failed', error: text } : pending)));
      toast.error(text);
      // A refusal may mean the job was paid, cancelled or assigned to another worker, or the worker blocked meanwhile: show it.
      if (error instanceof ApiRequestError && (error.status === 403 || error.status === 409)) void queryClient.invalidateQueries({ queryKey: chatKeys.detail(id) });
    }
  }

  async function loadOlder(): Promise<void> {
    if (!detail.olderCursor) return;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(api, id, { before: detail.olderCursor });
      mergeIntoConversation(queryClient, id, page.items);
      queryClient.setQueryData<ConversationDetail>(chatKeys.detail(id), (current) => current && { ...current, olderCursor: page.nextCursor });
    } catch (error) {
      toast.error(apiErrorText(error, MSG.messaging.messagesLoadFailed));
    } finally {
      setLoadingOlder(false);
    }
  }

  return (
    <div className="page chat-page chat">
      <ChatHeader conversation={conversation} messages={messages} />
      <MessageThread
        messages={messages}
        outbox={outbox}
        onRetry={(message) => void send(message)}
        olderAvailable={Boolean(detail.olderCursor)}
        loadingOlder={loadingOlder}
        onLoadOlder={() => void loadOlder()}
      />
      <MessageComposer conversation={conversation} onSend={(message) => void send(message)} />
    </div>
  );
}
