import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db.js';
import { logger } from '../lib/logger.js';
import { keys, timeOrdered } from '../table.js';

/** Who acted: the admin's id, or 'system' for security events the platform records itself. */
export const SYSTEM_ACTOR = 'system';

export interface AdminAction {
  adminId: string;
  actionType: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  reason: string;
}

/** An admin_actions entry ready to put, alone or in the transaction of the change it records. */
export function adminActionItem(action: AdminAction) {
  const id = randomUUID();
  const createdAt = new Date().toISOString();
  return {
    ...keys.adminAction(id),
    type: 'adminAction',
    id,
    ...action,
    createdAt,
    gsi1pk: keys.adminActionsLog(),
    gsi1sk: timeOrdered(createdAt, id),
  };
}

/** Appends to the admin_actions log the admin dashboard reads (spec 1 §3, spec 2 §7). */
export async function recordAdminAction(action: AdminAction): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: adminActionItem(action) }));
}

/** A security event: logged, and recorded for the admin; never fails the caller's request. */
export async function recordSecurityEvent(actionType: string, targetType: string, targetId: string, details: Record<string, unknown>, reason: string) {
  logger.warn('security event', { actionType, targetType, targetId, details });
  await recordAdminAction({ adminId: SYSTEM_ACTOR, actionType, targetType, targetId, details, reason }).catch((error: unknown) =>
    logger.error('security event not recorded', { actionType, error }),
  );
}
