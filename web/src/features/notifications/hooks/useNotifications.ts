import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AppNotification, LiveMessage, UnreadCount } from '../../../../../shared/api';
import { compareNotifications, NOTIFICATION_LIMITS } from '../../../../../shared/notifications';
import { fetchNotifications } from '../api/fetch-notifications';
import { fetchUnreadNotificationCount } from '../api/fetch-unread-notification-count';
import { markAllNotificationsRead } from '../api/mark-all-notifications-read';
import { markNotificationRead } from '../api/mark-notification-read';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { useToast, type Toaster } from '../../../lib/toast/useToast';

/** Cache keys of the signed-in user's notifications (the cache is emptied when the user changes). */
export const NOTIFICATION_KEYS = {
  list: ['notifications', 'list'] as const,
  unread: ['notifications', 'unread'] as const,
};

export function useNotificationList() {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({ queryKey: NOTIFICATION_KEYS.list, queryFn: () => fetchNotifications(api).then((page) => page.items), enabled: status === 'signedIn' });
}

export function useUnreadCount() {
  const api = useApi();
  const { status } = useAuth();
  return useQuery({ queryKey: NOTIFICATION_KEYS.unread, queryFn: () => fetchUnreadNotificationCount(api), enabled: status === 'signedIn' });
}

function patchRead(client: QueryClient, notificationId: string | null) {
  const now = new Date().toISOString();
  client.setQueryData<AppNotification[]>(NOTIFICATION_KEYS.list, (list) =>
    list?.map((n) => (n.read || (notificationId !== null && n.id !== notificationId) ? n : { ...n, read: true, updatedAt: now })),
  );
}

/** Opening a notification marks it read: the cache at once, the server behind it. */
export function useMarkNotificationRead() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => markNotificationRead(api, id),
    onMutate: (id) => {
      const wasUnread = client.getQueryData<AppNotification[]>(NOTIFICATION_KEYS.list)?.some((n) => n.id === id && !n.read);
      patchRead(client, id);
      if (wasUnread) client.setQueryData<UnreadCount>(NOTIFICATION_KEYS.unread, (count) => count && { ...count, count: Math.max(0, count.count - 1) });
    },
    onSettled: () => client.invalidateQueries({ queryKey: NOTIFICATION_KEYS.unread }),
  });
}

export function useMarkAllNotificationsRead() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => markAllNotificationsRead(api),
    onMutate: () => {
      patchRead(client, null);
      client.setQueryData<UnreadCount>(NOTIFICATION_KEYS.unread, { count: 0, capped: false });
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
}

/** Spec 2 §8: the types that toast on arrival, with their kind and time on screen. */
const ARRIVAL_TOASTS: Partial<Record<AppNotification['type'], { kind: keyof Toaster; durationMs: number }>> = {
  new_job_nearby: { kind: 'success', durationMs: 6000 },
  job_unassigned: { kind: 'error', durationMs: 8000 },
  dispute_update: { kind: 'info', durationMs: 8000 },
};

function applyLiveNotification(client: QueryClient, toast: Toaster, message: LiveMessage) {
  if (message.type === 'notifications.read') {
    patchRead(client, message.notificationId);
    void client.invalidateQueries({ queryKey: NOTIFICATION_KEYS.unread });
    return;
  }
  if (message.type !== 'notification') return;
  const { notification } = message;
  // A push delivered twice (at-least-once) counts once.
  const known = client.getQueryData<AppNotification[]>(NOTIFICATION_KEYS.list)?.some((n) => n.id === notification.id);
  client.setQueryData<AppNotification[]>(NOTIFICATION_KEYS.list, (list) =>
    list ? [notification, ...list.filter((n) => n.id !== notification.id)].sort(compareNotifications).slice(0, NOTIFICATION_LIMITS.page) : list,
  );
  if (known) return;
  client.setQueryData<UnreadCount>(NOTIFICATION_KEYS.unread, (count) => count && { ...count, count: count.count + 1 });
  const arrival = ARRIVAL_TOASTS[notification.type];
  if (arrival) toast[arrival.kind](`${notification.title}: ${notification.message}`, arrival.durationMs);
}

/**
 * New notifications and read changes pushed by the server patch the cache (bell, badge,
 * page) without a reload, and the spec's types toast. Mount once, for signed-in users.
 */
export function useLiveNotifications(): void {
  const client = useQueryClient();
  const toast = useToast();
  useLiveUpdates((message) => applyLiveNotification(client, toast, message));
}

