import type { ConversationView } from '../../../../../shared/api';
import type { StartConversationRequest } from '../../../../../shared/schemas/chat';
import type { ApiClient } from '../../../lib/api/client';

/** Starts the conversation of a job and a worker, or reopens the one they have. */
export const startConversation = (api: ApiClient, request: StartConversationRequest) => api.post<ConversationView>('/conversations', request);
