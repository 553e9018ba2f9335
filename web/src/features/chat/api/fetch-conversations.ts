import type { ConversationView } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchConversations = (api: ApiClient) => api.get<{ items: ConversationView[] }>('/conversations');
