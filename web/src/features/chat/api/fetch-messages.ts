import type { ChatMessage, Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** Messages after a position (catching up, oldest first) or before one (older history). */
export const fetchMessages = (api: ApiClient, id: string, range: { after?: string; before?: string }) =>
  api.get<Page<ChatMessage>>(`/conversations/${encodeURIComponent(id)}/messages`, range);
