import type { ChatMessage } from '../../../../../shared/api';
import type { SendMessageRequest } from '../../../../../shared/schemas/chat';
import type { ApiClient } from '../../../lib/api/client';

export const sendChatMessage = (api: ApiClient, id: string, request: SendMessageRequest) =>
  api.post<{ message: ChatMessage; questionSent: boolean }>(`/conversations/${encodeURIComponent(id)}/messages`, request);
