/** The chat's routes of the HTTP API (functions/routes.ts `conversations`), typed. */
import type { ChatMessage, ConversationDetail, ConversationView, Page } from '../../../../../shared/api';
import type { SendMessageRequest, StartConversationRequest } from '../../../../../shared/chat';
import type { ApiClient } from '../../../lib/api/client';

const path = (id: string) => `/conversations/${encodeURIComponent(id)}`;

export const fetchConversations = (api: ApiClient) => api.get<{ items: ConversationView[] }>('/conversations');

/** Starts the conversation of a job and a worker, or reopens the one they have. */
export const startConversation = (api: ApiClient, request: StartConversationRequest) => api.post<ConversationView>('/conversations', request);

export const fetchConversation = (api: ApiClient, id: string) => api.get<ConversationDetail>(path(id));

/** Messages after a position (catching up, oldest first) or before one (older history). */
export const fetchMessages = (api: ApiClient, id: string, range: { after?: string; before?: string }) =>
  api.get<Page<ChatMessage>>(`${path(id)}/messages`, range);

export const sendChatMessage = (api: ApiClient, id: string, request: SendMessageRequest) =>
  api.post<{ message: ChatMessage; questionSent: boolean }>(`${path(id)}/messages`, request);

export const markConversationRead = (api: ApiClient, id: string) => api.post<void>(`${path(id)}/read`, {});

export const setWorkerBlocked = (api: ApiClient, id: string, blocked: boolean) =>
  blocked ? api.put<ConversationView>(`${path(id)}/block`) : api.delete<ConversationView>(`${path(id)}/block`);

export const fetchUnreadMessages = (api: ApiClient) => api.get<{ total: number }>('/me/unread-messages');
