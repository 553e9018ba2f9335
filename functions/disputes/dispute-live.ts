import type { Dispute, DisputeLiveMessage } from '../../shared/api.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';
import { adminUserId } from '../people/admin-seat.js';

async function* connectionsOf(userIds: string[]): AsyncGenerator<string> {
  for (const userId of userIds) yield* userConnectionIds(userId);
}

/** A dispute's new message or new state goes live to both parties and the admin (spec 2 §4). */
export async function pushDisputeEvent(dispute: Pick<Dispute, 'reporterId' | 'reportedId'>, message: DisputeLiveMessage): Promise<void> {
  const adminId = await adminUserId();
  const recipients = [...new Set([dispute.reporterId, dispute.reportedId, ...(adminId ? [adminId] : [])])];
  await pushToConnections(connectionsOf(recipients), message);
}
