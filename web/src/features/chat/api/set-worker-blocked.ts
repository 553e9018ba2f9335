import type { ConversationView } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const setWorkerBlocked = (api: ApiClient, id: string, blocked: boolean) => {
  const blockPath = `/conversations/${encodeURIComponent(id)}/block`;
  return blocked ? api.put<ConversationView>(blockPath) : api.delete<ConversationView>(blockPath);
};
