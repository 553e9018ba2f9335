import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { chatKeys } from './chat-keys';

export const fetchUnreadMessages = (api: ApiClient) => api.get<{ total: number }>('/me/unread-messages');

export const unreadMessagesQueryOptions = (api: ApiClient) =>
  queryOptions({ queryKey: chatKeys.unread(), queryFn: async () => (await fetchUnreadMessages(api)).total });

/** The header badge's number: unread messages over all conversations (0 when signed out). */
export function useUnreadMessageTotal(): number {
  const api = useApi();
  const { status } = useAuth();
  const query = useQuery({ ...unreadMessagesQueryOptions(api), enabled: status === 'signedIn' });
  return query.data ?? 0;
}
