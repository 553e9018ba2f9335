import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PROFILE_PENALTY, RATE_LIMITS, type RateLimitName } from '../../shared/limits.js';
import { keys } from '../table.js';
import { db, tableName } from './db.js';
import type { TransactItem } from './transactions.js';

export interface RateDecision {
  allowed: boolean;
  count: number;
  /** Seconds until the caller may try again (0 when allowed). */
  retryAfterSeconds: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function window(name: RateLimitName, at = nowSeconds()) {
  const { windowSeconds } = RATE_LIMITS[name];
  const start = Math.floor(at / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

/**
 * Counts one attempt in a fixed window with an atomic counter (safe under concurrency: the
 * N+1th of N+1 simultaneous attempts is refused). The counter item expires with its window.
 */
export async function countAttempt(name: RateLimitName, subject: string, max: number = RATE_LIMITS[name].limit): Promise<RateDecision> {
  const limit = RATE_LIMITS[name];
  const { start, end } = window(name);
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.rateCounter(limit.name, subject, start),
      UpdateExpression: 'ADD #count :one SET expiresAt = :expires',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':expires': end + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(Attributes?.count ?? 1);
  const allowed = count <= max;
  return { allowed, count, retryAfterSeconds: allowed ? 0 : end - nowSeconds() };
}

/**
 * Counts one attempt named by `attemptId` (a client-chosen id) as an item of the caller's
 * transaction, so only what the transaction writes is counted: repeating an id, as a resend
 * does, does not count again. The window's ids are a string set that never grows past the
 * limit: an id beyond it fails the item's condition, and `retryAfterSeconds` says how long
 * until the window ends.
 */
export function distinctAttemptCount(name: RateLimitName, subject: string, attemptId: string): { item: TransactItem; retryAfterSeconds: () => number } {
  const limit = RATE_LIMITS[name];
  const { start, end } = window(name);
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.rateCounter(limit.name, subject, start),
        UpdateExpression: 'ADD attempts :ids SET expiresAt = :expires',
        ConditionExpression: 'attribute_not_exists(attempts) OR size(attempts) < :limit OR contains(attempts, :id)',
        ExpressionAttributeValues: { ':ids': new Set([attemptId]), ':id': attemptId, ':limit': limit.limit, ':expires': end + 60 },
      },
    },
    retryAfterSeconds: () => Math.max(1, end - nowSeconds()),
  };
}

/** Forgets the attempts of the current window (a successful sign-in clears its failures). */
export async function clearAttempts(name: RateLimitName, subject: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.rateCounter(RATE_LIMITS[name].name, subject, window(name).start) }));
}

/**
 * The profile-update limit with its growing penalty: each refused attempt adds
 * 5 s (up to 60 s) during which every attempt is refused. Violations are remembered for an hour.
 */
export async function countProfileUpdate(userId: string): Promise<RateDecision> {
  const penaltyKey = keys.rateCounter('profile-penalty', userId, 0);
  const now = nowSeconds();
  const { Item: penalty } = await db.send(new GetCommand({ TableName: tableName(), Key: penaltyKey }));
  const blockedUntil = Number(penalty?.blockedUntil ?? 0);
  if (blockedUntil > now) return { allowed: false, count: 0, retryAfterSeconds: blockedUntil - now };

  const decision = await countAttempt('profileUpdate', userId);
  if (decision.allowed) return decision;
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: penaltyKey,
      UpdateExpression: 'ADD violations :one SET expiresAt = :expires',
      ExpressionAttributeValues: { ':one': 1, ':expires': now + 3600 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const violations = Number(Attributes?.violations ?? 1);
  const wait = Math.min(violations * PROFILE_PENALTY.secondsPerViolation, PROFILE_PENALTY.maxSeconds);
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: penaltyKey,
      UpdateExpression: 'SET blockedUntil = :until',
      ExpressionAttributeValues: { ':until': now + wait },
    }),
  );
  return { allowed: false, count: decision.count, retryAfterSeconds: Math.max(wait, decision.retryAfterSeconds) };
}
