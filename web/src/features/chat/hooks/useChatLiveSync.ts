import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { ConversationDetail, ConversationView, LiveMessage } from '../../../../../shared/api';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useLiveReconnect, useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { catchUpConversation, isOpenConversation, mergeIntoConversation, patchListedConversation } from '../api/chat-cache';
import { chatKeys } from '../api/chat-keys';

/**
 * Keeps the chat's cache live for the signed-in user: a pushed message joins its conversation
 * and moves the list and the unread counts; a read receipt marks bubbles read; a block
 * re-reads the conversation. After a lost connection every opened conversation reads the
 * messages after the last one it holds, so nothing is missed and nothing doubled.
 */
export function useChatLiveSync(): void {
  const api = useApi();
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  // A message counted unread once, however often it is pushed (the sender's tabs, a retry).
  const counted = useRef(new Set<string>());

  useLiveUpdates((live: LiveMessage) => {
    if (!userId) return;
    if (live.type === 'chat.message') {
      const { conversationId, message } = live;
      mergeIntoConversation(queryClient, conversationId, [message]);
      const incoming = message.senderId !== userId && !isOpenConversation(conversationId) && !counted.current.has(message.id);
      if (incoming) counted.current.add(message.id);
      const list = queryClient.getQueryData<ConversationView[]>(chatKeys.list());
      if (list?.some((conversation) => conversation.id === conversationId)) {
        const moved = list.map((conversation) =>
          conversation.id === conversationId
            ? {
                ...conversation,
                lastMessage: { content: message.content, senderId: message.senderId, createdAt: message.createdAt },
                updatedAt: message.createdAt,
                unreadCount: conversation.unreadCount + (incoming ? 1 : 0),
              }
            : conversation,
        );
        queryClient.setQueryData(chatKeys.list(), moved.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)));
      } else if (list) {
        // A conversation new to this list (the other party started it): read it with its details.
        void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      }
      if (incoming) void queryClient.invalidateQueries({ queryKey: chatKeys.unread() });
    } else if (live.type === 'chat.read') {
      if (live.readerId === userId) {
        patchListedConversation(queryClient, live.conversationId, (conversation) => ({ ...conversation, unreadCount: 0 }));
        void queryClient.invalidateQueries({ queryKey: chatKeys.unread() });
        return;
      }
      queryClient.setQueryData<ConversationDetail>(chatKeys.detail(live.conversationId), (detail) =>
        detail
          ? { ...detail, messages: detail.messages.map((message) => (message.senderId === userId && message.position <= live.readUpTo ? { ...message, read: true } : message)) }
          : detail,
      );
    } else if (live.type === 'chat.updated') {
      void queryClient.invalidateQueries({ queryKey: chatKeys.detail(live.conversationId) });
      void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    }
  });

  useLiveReconnect(() => {
    void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    void queryClient.invalidateQueries({ queryKey: chatKeys.unread() });
    for (const [key, detail] of queryClient.getQueriesData<ConversationDetail>({ queryKey: ['chat', 'conversation'] })) {
      if (detail) void catchUpConversation(api, queryClient, String(key[2]), detail.messages.at(-1)?.position);
    }
  });
}
