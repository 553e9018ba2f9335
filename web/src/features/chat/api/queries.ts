/**
 * The chat's server state in the TanStack Query cache: the conversation list, each opened
 * conversation with its messages, and the header's unread total. Live pushes patch these
 * entries (useChatLiveSync) rather than each screen keeping its own copy.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { ChatMessage, ConversationDetail, ConversationView } from '../../../../../shared/api';
import { mergeMessages } from '../../../../../shared/chat';
import type { ApiClient } from '../../../lib/api/client';
import { fetchConversation } from './fetch-conversation';
import { fetchConversations } from './fetch-conversations';
import { fetchMessages } from './fetch-messages';
import { fetchUnreadMessages } from './fetch-unread-messages';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';

export const chatKeys = {
  all: ['chat'] as const,
  list: () => ['chat', 'conversations'] as const,
  detail: (id: string) => ['chat', 'conversation', id] as const,
  unread: () => ['chat', 'unread'] as const,
};

export function useConversationList() {
  const api = useApi();
  return useQuery({ queryKey: chatKeys.list(), queryFn: async () => (await fetchConversations(api)).items });
}

export function useConversationDetail(id: string) {
  const api = useApi();
  return useQuery({ queryKey: chatKeys.detail(id), queryFn: () => fetchConversation(api, id) });
}

/** The header badge's number: unread messages over all conversations (0 when signed out). */
export function useUnreadMessageTotal(): number {
  const api = useApi();
  const { status } = useAuth();
  const query = useQuery({ queryKey: chatKeys.unread(), queryFn: async () => (await fetchUnreadMessages(api)).total, enabled: status === 'signedIn' });
  return query.data ?? 0;
}

/** Adds messages to an opened conversation in the cache (each id once, in order). */
export function mergeIntoConversation(queryClient: QueryClient, id: string, messages: readonly ChatMessage[]): void {
  queryClient.setQueryData<ConversationDetail>(chatKeys.detail(id), (detail) => (detail ? { ...detail, messages: mergeMessages(detail.messages, messages) } : detail));
}

/** After a lost connection: reads what an opened conversation missed after its last message and merges it. */
export async function catchUpConversation(api: ApiClient, queryClient: QueryClient, id: string, after: string | undefined): Promise<void> {
  if (!after) {
    await queryClient.invalidateQueries({ queryKey: chatKeys.detail(id) });
    return;
  }
  for (let cursor: string | null = after; cursor; ) {
    const page = await fetchMessages(api, id, { after: cursor });
    mergeIntoConversation(queryClient, id, page.items);
    cursor = page.nextCursor;
  }
}

/** Changes one conversation of the cached list. */
export function patchListedConversation(queryClient: QueryClient, id: string, patch: (conversation: ConversationView) => ConversationView): void {
  queryClient.setQueryData<ConversationView[]>(chatKeys.list(), (list) => list?.map((conversation) => (conversation.id === id ? patch(conversation) : conversation)));
}

/**
 * The conversation on screen right now: its incoming messages are read as they arrive, so
 * they do not count as unread meanwhile.
 */
let openConversationId: string | null = null;
export const setOpenConversation = (id: string | null) => {
  openConversationId = id;
};
export const isOpenConversation = (id: string) => openConversationId === id && document.visibilityState === 'visible';
