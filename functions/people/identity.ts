import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { IdentityCheckStart } from '../../shared/api.js';
import { IDENTITY_STATUS_TEXTS, identityStatusOf, type IdentityStatus } from '../../shared/identity.js';
import { MSG } from '../../shared/messages.js';
import { db, isConditionFailure, tableName } from '../lib/db.js';
import { badRequest, conflict } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { getProfile, type ProfileItem } from './profiles.js';

/**
 * Identity verification (issue 47, docs/decisions/0320): Stripe Identity checks a government ID
 * against a live selfie and keeps both; the profile keeps only `identityStatus`,
 * `identityVerifiedAt`, `identitySessionId` and when Stripe was last read (`identityCheckedAt`).
 * Whatever the webhook says, the session is read again from Stripe and the newest read wins,
 * so replays and events out of order leave the newest state and notify once.
 */

/** Statuses after which a new session is needed: the old one cannot be tried again. */
const NEEDS_NEW_SESSION: ReadonlySet<IdentityStatus> = new Set(['verified', 'canceled', 'revoked']);

/**
 * POST /me/identity-check: the session the browser opens Stripe's verification modal with — the
 * user's current one while it waits for a (new) try, else a new one. Two clicks at once get the
 * same session: its creation's idempotency key names the session it follows.
 */
export async function startIdentityCheck(profile: ProfileItem): Promise<IdentityCheckStart> {
  if (profile.role === 'admin') throw badRequest(MSG.identity.adminAccount);
  if (profile.identityStatus === 'verified') throw conflict(MSG.identity.alreadyVerified);
  if (profile.identityStatus === 'processing') throw conflict(MSG.identity.stillChecking);
  const session = await sessionToTry(profile);
  if (!session.client_secret) throw new Error(`Stripe answered verification session ${session.id} without a client secret`);
  // A new try starts from no status: what the last one said (a failure, a revocation) is left
  // behind, and the next result, even the same failure again, shows as new.
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.profile(profile.id),
      UpdateExpression: 'SET identitySessionId = :session REMOVE identityStatus, identityVerifiedAt, identityCheckedAt',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
      ExpressionAttributeValues: { ':session': session.id },
    }),
  );
  return { sessionId: session.id, clientSecret: session.client_secret };
}

/** The user's current session while Stripe waits for a (new) try on it (read again: a client secret works once), else a new one. */
async function sessionToTry(profile: ProfileItem): Promise<Stripe.Identity.VerificationSession> {
  const client = await stripe();
  if (profile.identitySessionId && !(profile.identityStatus && NEEDS_NEW_SESSION.has(profile.identityStatus))) {
    const current = await client.identity.verificationSessions.retrieve(profile.identitySessionId);
    if (current.status === 'requires_input' && !current.redaction) return current;
  }
  return client.identity.verificationSessions.create(
    {
      type: 'document',
      options: { document: { require_matching_selfie: true } },
      client_reference_id: profile.id,
      metadata: { userId: profile.id },
    },
    { idempotencyKey: `identity-session:${profile.id}:after:${profile.identitySessionId ?? 'none'}` },
  );
}

/** The notification a change of status brings: success, or what to try next. None for `processing`. */
function statusNotice(userId: string, status: IdentityStatus) {
  if (status === 'processing') return [];
  const verified = status === 'verified';
  return notificationWrites(
    notificationItem({
      userId,
      jobId: null,
      type: verified ? 'identity_verified' : 'identity_needs_retry',
      title: verified ? MSG.identity.verifiedTitle : status === 'revoked' ? MSG.identity.revokedTitle : MSG.identity.retryTitle,
      message: verified ? MSG.identity.verifiedMessage : status === 'revoked' ? MSG.identity.revokedMessage : IDENTITY_STATUS_TEXTS[status],
    }),
  );
}

/**
 * An `identity.verification_session.*` event: the session read again from Stripe, its status
 * saved on its user's profile if it is still their current session, not revoked, read later
 * than the saved one and different from it — with the notification, in one transaction. A
 * replay or a slower read of an older state is refused by the condition and changes nothing.
 */
export async function takeInVerificationSession(sessionId: string): Promise<void> {
  const session = await (await stripe()).identity.verificationSessions.retrieve(sessionId);
  const userId = session.client_reference_id ?? session.metadata?.userId;
  if (!userId) {
    logger.warn('verification session of no known user', { sessionId });
    return;
  }
  const checkedAt = new Date().toISOString();
  const status = identityStatusOf(session);
  if (!status) return; // Waiting for its first try: nothing to show yet.
  const profile = await getProfile(userId);
  if (!profile || profile.deletedAt || profile.identitySessionId !== session.id || profile.identityStatus === status) return;
  // Stripe's session says no time of its verification: the time it was read verified is the one kept.
  const verified = status === 'verified';
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.profile(userId),
        UpdateExpression: verified
          ? 'SET identityStatus = :status, identityCheckedAt = :checked, identityVerifiedAt = :verified'
          : 'SET identityStatus = :status, identityCheckedAt = :checked REMOVE identityVerifiedAt',
        ConditionExpression:
          'identitySessionId = :session AND attribute_not_exists(deletedAt) AND (attribute_not_exists(identityCheckedAt) OR identityCheckedAt < :checked) AND (attribute_not_exists(identityStatus) OR (identityStatus <> :status AND identityStatus <> :revoked))',
        ExpressionAttributeValues: {
          ':status': status,
          ':checked': checkedAt,
          ':session': session.id,
          ':revoked': 'revoked',
          ...(verified ? { ':verified': checkedAt } : {}),
        },
      },
    },
    ...statusNotice(userId, status),
  ];
  try {
    await transactWrite(items);
    logger.info('identity status saved', { userId, sessionId, status });
  } catch (error) {
    if (error instanceof TransactionRefused || isConditionFailure(error)) return; // A newer read, a replay or a revocation came first.
    throw error;
  }
}

/**
 * The admin's revocation (POST /admin/users/{id}/identity-revocation): the badge goes at once,
 * with the audit entry and the user's notice in the same transaction; only a verified user's.
 */
export async function revokeIdentity(profile: ProfileItem, auditEntry: TransactItem): Promise<void> {
  if (profile.identityStatus !== 'verified') throw conflict(MSG.identity.notVerified);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.profile(profile.id),
        UpdateExpression: 'SET identityStatus = :revoked, identityCheckedAt = :now REMOVE identityVerifiedAt',
        ConditionExpression: 'identityStatus = :verified',
        ExpressionAttributeValues: { ':revoked': 'revoked', ':verified': 'verified', ':now': new Date().toISOString() },
      },
    },
    auditEntry,
    ...statusNotice(profile.id, 'revoked'),
  ];
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof TransactionRefused) throw conflict(MSG.identity.notVerified);
    throw error;
  }
}

/** A redaction Stripe refused as a request (its 400): not retried, counted as left behind. */
const isRefusedRequest = (error: unknown) => (error as { type?: string } | null)?.type === 'StripeInvalidRequestError';

/**
 * Account deletion: every session of the user redacted at Stripe (its documents, selfie and
 * outputs erased there). A session Stripe is still checking cannot be redacted yet, and one
 * Stripe refuses to redact (a state its documentation does not name) is not a reason to keep
 * the account: both are counted as left behind, and the deletion sweep (which purges again 30
 * days on) tries them again and records what it still finds.
 */
export async function redactIdentitySessions(userId: string): Promise<{ redacted: number; leftBehind: number }> {
  const client = await stripe();
  let redacted = 0;
  let leftBehind = 0;
  for await (const session of client.identity.verificationSessions.list({ client_reference_id: userId, limit: 100 })) {
    if (session.redaction) continue;
    if (session.status === 'processing') {
      leftBehind += 1;
      continue;
    }
    try {
      await client.identity.verificationSessions.redact(session.id, {}, { idempotencyKey: `identity-redact:${session.id}` });
      redacted += 1;
    } catch (error) {
      if (!isRefusedRequest(error)) throw error;
      logger.warn('Stripe refused to redact an identity check', { userId, sessionId: session.id, status: session.status });
      leftBehind += 1;
    }
  }
  return { redacted, leftBehind };
}
