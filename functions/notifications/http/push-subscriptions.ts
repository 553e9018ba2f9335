import { pushEndpointQuerySchema, pushSubscriptionSchema } from '../../../shared/schemas/push.js';
import { removePushSubscription, savePushSubscription } from '../push-subscriptions.js';
import { parseWith, routeGroup } from '../../lib/http.js';
import { vapidKeys } from '../../lib/web-push.js';

export const handler = routeGroup('pushSubscriptions', {
  /** The VAPID public key a browser subscribes with (applicationServerKey); 503 while the keys are not set. */
  'GET /push/public-key': async () => ({ publicKey: (await vapidKeys()).publicKey }),

  /** Saves this browser's subscription (PushSubscription.toJSON()) for the caller. */
  'PUT /me/push-subscriptions': async ({ caller, body }) => {
    await savePushSubscription(caller.userId, body(pushSubscriptionSchema));
    return { status: 204 };
  },

  /** Forgets the caller's subscription with this endpoint (`?endpoint=`); none such is no error. */
  'DELETE /me/push-subscriptions': async ({ caller, query }) => {
    await removePushSubscription(caller.userId, parseWith(pushEndpointQuerySchema, query).endpoint);
    return { status: 204 };
  },
});
