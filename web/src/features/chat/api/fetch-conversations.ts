import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConversationView } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { chatKeys } from './chat-keys';

export const fetchConversations = (api: ApiClient) => api.get<{ items: ConversationView[] }>('/conversations');

export const conversationsQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: chatKeys.list(), queryFn: async () => (await fetchConversations(api)).items });

export function useConversationList() {
  return useQuery(conversationsQueryOptions(useApi()));
}
