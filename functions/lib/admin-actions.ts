import { createHash, randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_PAGE_SIZE, type AdminActionType, type AdminActionView } from '../../shared/admin.js';
import type { Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { db, isConditionFailure, tableName } from './db.js';
import type { TransactItem } from './transactions.js';
import { logger } from './logger.js';
import { queryShardedPage } from './sharded-lists.js';
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
export function adminActionItem(action: AdminAction, id: string = randomUUID()) {
  const createdAt = new Date().toISOString();
  return {
    ...keys.adminAction(id),
    type: 'adminAction',
    id,
    ...action,
    createdAt,
    gsi1pk: keys.adminActionsLog().partitionOf(id),
    gsi1sk: timeOrdered(createdAt, id),
    gsi2pk: keys.adminActionsOfType(action.actionType),
    gsi2sk: timeOrdered(createdAt, id),
    gsi3pk: keys.adminActionsAbout(action.targetId),
    gsi3sk: timeOrdered(createdAt, id),
  };
}

/** The Put of one admin_actions entry, for the transaction of the change it records. */
export function adminActionPut(action: AdminAction): TransactItem {
  return { Put: { TableName: tableName(), Item: adminActionItem(action) } };
}

/** Appends to the admin_actions log the admin dashboard reads (spec 1 §3, spec 2 §7). */
export async function recordAdminAction(action: AdminAction): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: adminActionItem(action) }));
}

/**
 * A security event: logged every time, and recorded for the admin; never fails the caller's
 * request. With `oncePer`, recorded once for that key however often it happens (the entry's id
 * is the key's hash, and its own key refuses a second one), so a caller repeating it cannot fill
 * the log.
 */
export async function recordSecurityEvent(
  actionType: string,
  targetType: string,
  targetId: string,
  details: Record<string, unknown>,
  reason: string,
  { oncePer }: { oncePer?: string } = {},
) {
  logger.warn('security event', { actionType, targetType, targetId, details });
  const id = oncePer === undefined ? undefined : createHash('sha256').update(`${actionType}\n${oncePer}`).digest('hex').slice(0, 32);
  const item = adminActionItem({ adminId: SYSTEM_ACTOR, actionType, targetType, targetId, details, reason }, id);
  await db.send(new PutCommand({ TableName: tableName(), Item: item, ...(id ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) })).catch((error: unknown) => {
    if (!(id && isConditionFailure(error))) logger.error('security event not recorded', { actionType, error });
  });
}

/** A refused role check (spec 1 §6: 'Insufficient permissions', and a security event), recorded once per user, operation and hour. */
export function recordRoleRefusal(userId: string, operation: string): Promise<void> {
  const hour = new Date().toISOString().slice(0, 13);
  return recordSecurityEvent('insufficient_permissions', 'user', userId, { operation }, MSG.auth.insufficientPermissions, { oncePer: `${userId}\n${operation}\n${hour}` });
}

/** The audit log, newest first, all of it (GSI1, one Query per shard, merged) or one action type (GSI2); 50 per page. */
export function listAdminActions(actionType: AdminActionType | undefined, cursor: string | undefined): Promise<Page<AdminActionView>> {
  return adminActionsPage(actionType ? ['GSI2', [keys.adminActionsOfType(actionType)]] : ['GSI1', keys.adminActionsLog().partitions], cursor);
}

/** The entries about one target (GSI3), newest first: a user's audit trail; 50. */
export async function adminActionsAbout(targetId: string): Promise<AdminActionView[]> {
  return (await adminActionsPage(['GSI3', [keys.adminActionsAbout(targetId)]], undefined)).items;
}

/** A page of entries from the partitions of one index (the shards of the log, or one partition: a list of one shard). */
async function adminActionsPage([index, partitions]: ['GSI1' | 'GSI2' | 'GSI3', readonly string[]], cursor: string | undefined): Promise<Page<AdminActionView>> {
  const { items, nextCursor } = await queryShardedPage(partitions, { IndexName: index }, ADMIN_PAGE_SIZE, cursor);
  return {
    items: items.map((item) => ({
      id: item.id,
      adminId: item.adminId,
      actionType: item.actionType,
      targetType: item.targetType,
      targetId: item.targetId,
      details: item.details ?? {},
      reason: item.reason,
      createdAt: item.createdAt,
    })),
    nextCursor,
  };
}
