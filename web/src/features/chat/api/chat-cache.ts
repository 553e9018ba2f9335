/**
 * Patches to the chat's entries of the TanStack Query cache (chat-keys.ts): live pushes
 * (useChatLiveSync) and the chat screen change these entries rather than each screen keeping
 * its own copy.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ChatMessage, ConversationDetail, ConversationView } from '../../../../../shared/api';
import { mergeMessages } from '../../../../../shared/chat';
import type { ApiClient } from '../../../lib/api/client';
import { fetchMessages } from './fetch-messages';
import { chatKeys } from './chat-keys';

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
