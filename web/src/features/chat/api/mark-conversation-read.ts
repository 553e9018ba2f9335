import type { ApiClient } from '../../../lib/api/client';

export const markConversationRead = (api: ApiClient, id: string) => api.post<void>(`/conversations/${encodeURIComponent(id)}/read`, {});
