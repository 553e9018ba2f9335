import type { ConversationDetail } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchConversation = (api: ApiClient, id: string) => api.get<ConversationDetail>(`/conversations/${encodeURIComponent(id)}`);
