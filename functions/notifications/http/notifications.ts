import { MSG } from '../../../shared/messages.js';
import { countUnread, listNotifications, markAllNotificationsRead, markNotificationRead } from '../notifications.js';
import { notFound } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('notifications', {
  /** The 50 newest shown in the app, in the spec's order (the bell shows the 10 newest of them). */
  'GET /me/notifications': async ({ caller }) => ({ items: await listNotifications(caller.userId) }),

  'GET /me/notifications/unread-count': async ({ caller }) => countUnread(caller.userId),

  /** Only the owner: anyone else's notification answers as missing. */
  'POST /me/notifications/{id}/read': async ({ caller, params }) => {
    const notification = await markNotificationRead(caller.userId, params.id ?? '');
    if (!notification) throw notFound(MSG.backend.notFound);
    return notification;
  },

  'POST /me/notifications/read-all': async ({ caller }) => ({ updated: await markAllNotificationsRead(caller.userId) }),
});
