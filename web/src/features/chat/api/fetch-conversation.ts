import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConversationDetail } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { chatKeys } from './chat-keys';

export const fetchConversation = (api: ApiClient, id: string) => api.get<ConversationDetail>(`/conversations/${encodeURIComponent(id)}`);

export const conversationQueryOptions = (api: ApiClient, id: string) =>
  queryOptions({ queryKey: chatKeys.detail(id), queryFn: () => fetchConversation(api, id) });

export function useConversationDetail(id: string) {
  return useQuery(conversationQueryOptions(useApi(), id));
}
