import type { LiveMessage } from '../../shared/api.js';
import { logger } from '../lib/logger.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';
import { adminUserId } from '../people/admin-seat.js';

/**
 * Tells the admin's open consoles that a payment row changed (spec 2 §6: the admin payments
 * view updates on any change). Best effort: the change is written already, and the list
 * refetches on reconnect and when it goes stale.
 */
export async function pushPaymentChanged(paymentId: string): Promise<void> {
  try {
    const adminId = await adminUserId();
    if (!adminId) return;
    const message: LiveMessage = { type: 'payment.changed', paymentId };
    await pushToConnections(userConnectionIds(adminId), message);
  } catch (error) {
    logger.warn('payment change not pushed to the admin', { paymentId, error });
  }
}
