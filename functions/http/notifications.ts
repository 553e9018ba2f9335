import { listNotifications } from '../domain/notifications.js';
import { routeGroup } from '../lib/http.js';

export const handler = routeGroup('notifications', {
  /** The 50 newest (the bell shows the first 10). */
  'GET /me/notifications': async ({ caller }) => ({ items: await listNotifications(caller.userId, 50) }),
});
