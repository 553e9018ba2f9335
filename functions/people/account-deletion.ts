import { isDeepStrictEqual } from 'node:util';
import {
  AdminDeleteUserCommand,
  AdminInitiateAuthCommand,
  CognitoIdentityProviderClient,
  NotAuthorizedException,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isDisputeOpen, type DisputeStatus } from '../../shared/disputes.js';
import { TIP_IN_FLIGHT, isMoneyPending } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { NO_PAYMENT_ACCOUNT } from '../../shared/payments.js';
import { batchWrite } from '../lib/batch.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { env } from '../lib/env.js';
import { conflict, forbidden, notFound } from '../lib/errors.js';
import { deleteUploadsOf } from '../lib/images.js';
import { logger } from '../lib/logger.js';
import { closeUserConnections } from '../lib/sockets.js';
import { TransactionRefused, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { redactIdentitySessions } from './identity.js';
import { keys, timeOrdered, type ItemKey } from '../table.js';
import { SYSTEM_ACTOR, adminActionPut, recordAdminAction } from '../lib/admin-actions.js';
import { withdrawPendingApplications } from '../applications/applications.js';
import { removeQuestionsOf } from '../applications/questions.js';
import { deleteJob } from '../jobs/job-management.js';
import type { JobItem } from '../jobs/jobs.js';
import { getProfile, setClause, type ProfileItem } from './profiles.js';
import { workerShareUpdates } from '../location/worker-locations.js';

/**
 * Account deletion (issue 27; DECISIONS.md "Account deletion"; docs/decisions/README.md, its accounts records). The user
 * confirms with their password, checked by Cognito; the deletion is refused while a job of
 * theirs is assigned or completed and unpaid, or a dispute of theirs is open. Otherwise it is
 * recorded (a DELETION item and the admin's audit entry, nothing personal in either) and the
 * profile marked, then `purgePersonalData` removes or anonymises everything personal, and the
 * Cognito user is deleted last, so a retry (the same ID token still verifies for its hour)
 * finds the password check still possible and every step repeatable. The profile stays as a
 * tombstone named 'Deleted user': payments, reviews and messages keep their ids and every
 * screen resolves the name to it. The daily sweep runs the purge again on deletions 30 days old
 * and records what, if anything, it still found.
 */

/** How long after a deletion the sweep proves nothing personal is left (the privacy policy's promise). */
export const DELETION_SWEEP_AFTER_DAYS = 30;

let cognitoClient: CognitoIdentityProviderClient | undefined;
const cognito = () => (cognitoClient ??= new CognitoIdentityProviderClient({}));

/** What the profile holds once anonymised: the personal fields' replacements... */
const ANONYMOUS_PROFILE = {
  name: MSG.accountDeletion.deletedName,
  email: '',
  bio: '',
  skills: [] as string[],
  location: '',
  profileImageKey: null,
  notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: false },
  paymentAccount: NO_PAYMENT_ACCOUNT,
} satisfies Partial<ProfileItem>;
/**
 * ...and the fields it no longer has: the location, gsi1 (the nearby-alert index), gsi2 and gsi3
 * (the admin's search by name and by email), the Stripe links (the connected account, and the
 * Customer a poster's cards were saved to for tips) and the identity check's record (issue 47).
 */
const REMOVED_PROFILE_FIELDS = [
  'latitude',
  'longitude',
  'locationUpdatedAt',
  'timeZone',
  'market',
  'stripeAccountId',
  'stripeCustomerId',
  'identityStatus',
  'identityVerifiedAt',
  'identitySessionId',
  'identityCheckedAt',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
] as const;

/** The personal fields a profile still holds: none once anonymised. */
export function personalFieldsOf(profile: ProfileItem): string[] {
  const stored = profile as unknown as Record<string, unknown>;
  return [
    ...Object.entries(ANONYMOUS_PROFILE).filter(([field, value]) => !isDeepStrictEqual(stored[field], value)).map(([field]) => field),
    ...REMOVED_PROFILE_FIELDS.filter((field) => stored[field] !== undefined),
  ];
}

/** Statuses in which a job holds its parties: the work or its payment is still pending. */
const REFUSING_JOB_STATUSES = { assigned: MSG.accountDeletion.assignedJob, completed: MSG.accountDeletion.completedUnpaid } as const;

const jobsOf = (index: 'GSI2' | 'GSI3', partition: string) =>
  queryAll<JobItem>({
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': index === 'GSI2' ? 'gsi2pk' : 'gsi3pk' },
    ExpressionAttributeValues: { ':pk': partition },
  });

const disputesOf = (index: 'GSI1' | 'GSI2', userId: string) =>
  queryAll<{ status: DisputeStatus }>({
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': index === 'GSI1' ? 'gsi1pk' : 'gsi2pk', '#status': 'status' },
    ExpressionAttributeValues: { ':pk': keys.disputesOfUser(userId) },
    ProjectionExpression: '#status',
  });

/** The user's Instant Payouts Stripe has not yet said the end of. */
const pendingPayoutsOf = (userId: string) =>
  queryAll<{ status: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.instantPayoutPrefix(), ':pending': 'pending' },
  });

/**
 * Why the account may not be deleted now, if it may not: an assigned job or a completed one
 * awaiting release, as poster (whose payment is held) or worker, or an open dispute either way;
 * or money on its way (Wave 5) — a release, refund or other decision of one of their jobs, a tip
 * being charged or paid out, an Instant Payout Stripe has not finished.
 */
export async function deletionRefusal(userId: string): Promise<string | null> {
  const [posted, worked, filed, against, payouts] = await Promise.all([
    jobsOf('GSI2', keys.jobsByPoster(userId)),
    jobsOf('GSI3', keys.jobsByWorker(userId)),
    disputesOf('GSI1', userId),
    disputesOf('GSI2', userId),
    pendingPayoutsOf(userId),
  ]);
  const jobs = [...posted, ...worked];
  for (const [status, refusal] of Object.entries(REFUSING_JOB_STATUSES)) {
    if (jobs.some((job) => job.status === status && !job.deletingAt)) return refusal;
  }
  if ([...filed, ...against].some((dispute) => isDisputeOpen(dispute.status))) return MSG.accountDeletion.openDispute;
  if (payouts.length > 0 || jobs.some((job) => isMoneyPending(job) || (job.tipState !== undefined && TIP_IN_FLIGHT.includes(job.tipState)))) return MSG.accountDeletion.moneyPending;
  return null;
}

/** Cognito checks the password the user re-entered; a wrong one is refused. */
async function checkPassword(email: string, password: string): Promise<void> {
  try {
    await cognito().send(
      new AdminInitiateAuthCommand({
        UserPoolId: env('userPoolId'),
        ClientId: env('userPoolClientId'),
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
  } catch (error) {
    if (error instanceof NotAuthorizedException || error instanceof UserNotFoundException) throw forbidden(MSG.accountDeletion.wrongPassword);
    throw error;
  }
}

/** Deletes the Cognito user (by its `sub`, which Cognito takes as the username); true when there was one. */
async function deleteSignIn(userId: string): Promise<boolean> {
  try {
    await cognito().send(new AdminDeleteUserCommand({ UserPoolId: env('userPoolId'), Username: userId }));
    return true;
  } catch (error) {
    if (error instanceof UserNotFoundException) return false;
    throw error;
  }
}

/** The profile anonymised, the worker's share of their market's figures taken back and the Stripe account link deleted: one transaction. */
async function anonymiseProfile(userId: string): Promise<string[]> {
  return retryWhileStale(async () => {
    const profile = await getProfile(userId);
    if (!profile) return [];
    const personal = personalFieldsOf(profile);
    if (personal.length === 0) return [];
    const anonymised: ProfileItem = { ...profile, ...ANONYMOUS_PROFILE };
    for (const field of REMOVED_PROFILE_FIELDS) delete (anonymised as unknown as Record<string, unknown>)[field];
    const set = setClause({ ...ANONYMOUS_PROFILE, updatedAt: new Date().toISOString() });
    const removed = REMOVED_PROFILE_FIELDS.map((field, i) => {
      set.names[`#r${i}`] = field;
      return `#r${i}`;
    });
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.profile(userId),
          UpdateExpression: `${set.expression} REMOVE ${removed.join(', ')}`,
          ConditionExpression: 'updatedAt = :seen',
          ExpressionAttributeNames: set.names,
          ExpressionAttributeValues: { ...set.values, ':seen': profile.updatedAt },
        },
      },
      ...workerShareUpdates(profile, anonymised),
      ...(profile.stripeAccountId ? [{ Delete: { TableName: tableName(), Key: keys.stripeAccount(profile.stripeAccountId) } }] : []),
    ];
    await transactWrite(items);
    return personal.map((field) => `profile.${field}`);
  });
}

/** The user's open jobs and unpaid drafts withdrawn (deleted as the poster deletes them: an open paid job is refunded). */
async function withdrawOpenJobs(userId: string): Promise<number> {
  const open = (await jobsOf('GSI2', keys.jobsByPoster(userId))).filter((job) => job.status === 'open' || job.status === 'awaiting_payment');
  for (const job of open) await deleteJob(job.id, { userId, isAdmin: false });
  return open.length;
}

/** The user's own partition but their profile and the reviews about them: notifications, saved jobs, alert records, unread totals. */
async function deleteOwnItems(userId: string): Promise<number> {
  const own = await queryAll<ItemKey>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId) },
    ProjectionExpression: 'pk, sk',
  });
  const personal = own.filter((key) => key.sk !== keys.profile(userId).sk && !key.sk.startsWith('REVIEW#'));
  await batchWrite(personal.map((key) => ({ DeleteRequest: { Key: key } })));
  return personal.length;
}

/**
 * Removes or anonymises everything personal of a deleted account that is still there, and
 * answers what it found (nothing, when run again). Each step is repeatable.
 */
export async function purgePersonalData(userId: string): Promise<string[]> {
  const found: string[] = [];
  const count = (what: string, n: number) => {
    if (n > 0) found.push(`${what}: ${n}`);
  };
  count('open jobs', await withdrawOpenJobs(userId));
  count('pending applications', await withdrawPendingApplications(userId));
  count('public questions', await removeQuestionsOf(userId));
  // Before the profile loses their id's link to Stripe's sessions: each found by its client_reference_id.
  const identity = await redactIdentitySessions(userId);
  count('identity checks redacted at Stripe', identity.redacted);
  count('identity checks not yet redacted (Stripe still checking, or refusing)', identity.leftBehind);
  count('own items', await deleteOwnItems(userId));
  found.push(...(await anonymiseProfile(userId)));
  count('avatar images', await deleteUploadsOf(userId, 'avatar'));
  count('connections', await closeUserConnections(userId));
  return found;
}

/** The deletion's record and the admin's audit entry, once, with the profile marked deleted: one transaction. */
async function recordDeletion(profile: ProfileItem): Promise<void> {
  const deletedAt = new Date().toISOString();
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.accountDeletion(profile.id),
            type: 'accountDeletion',
            userId: profile.id,
            role: profile.role,
            deletedAt,
            gsi1pk: keys.deletionsAwaitingSweep(),
            gsi1sk: timeOrdered(deletedAt, profile.id),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.profile(profile.id),
          UpdateExpression: 'SET deletedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeValues: { ':now': deletedAt },
        },
      },
      adminActionPut({
        adminId: SYSTEM_ACTOR,
        actionType: 'delete_account',
        targetType: 'user',
        targetId: profile.id,
        details: { role: profile.role },
        reason: MSG.accountDeletion.auditReason,
      }),
    ]);
  } catch (error) {
    // A simultaneous request recorded it first: the rest is the same work.
    if (!(error instanceof TransactionRefused)) throw error;
  }
}

/**
 * Deletes the caller's account. Safe to retry: once recorded, a repeat (the password no longer
 * checkable when the sign-in is gone) finishes what is left and answers the same.
 */
export async function deleteAccount(caller: { userId: string; email: string }, password: string): Promise<void> {
  const profile = await getProfile(caller.userId);
  if (!profile) throw notFound(MSG.auth.profileNotFound);
  // The one admin seat is the deploy's (or the first admin's): the console would be left without one.
  if (profile.role === 'admin') throw forbidden(MSG.accountDeletion.adminAccount);
  if (!profile.deletedAt) {
    await checkPassword(caller.email, password);
    const refusal = await deletionRefusal(caller.userId);
    if (refusal) throw conflict(refusal);
    await recordDeletion(profile);
  }
  await purgePersonalData(caller.userId);
  await deleteSignIn(caller.userId);
  logger.info('account deleted', { userId: caller.userId });
}

/** What one run of the sweep did. */
export interface DeletionSweepResult {
  checked: number;
  /** The deletions where something personal was still found (and removed), by user id. */
  leftovers: Record<string, string[]>;
}

/**
 * The daily sweep: every deletion at least DELETION_SWEEP_AFTER_DAYS old and not yet checked is
 * purged again; what it still found is written on the deletion's record and in the audit log,
 * and the record leaves the sweep's index.
 */
export async function sweepDeletions(now = new Date()): Promise<DeletionSweepResult> {
  const cutoff = new Date(now.getTime() - DELETION_SWEEP_AFTER_DAYS * 86_400_000).toISOString();
  const due = await queryAll<{ userId: string }>({
    IndexName: 'GSI1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
    ExpressionAttributeValues: { ':pk': keys.deletionsAwaitingSweep(), ':cutoff': cutoff },
  });
  const result: DeletionSweepResult = { checked: 0, leftovers: {} };
  for (const { userId } of due) {
    const found = await purgePersonalData(userId);
    if (await deleteSignIn(userId)) found.push('sign-in');
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.accountDeletion(userId),
        UpdateExpression: 'SET sweptAt = :now, leftovers = :found REMOVE gsi1pk, gsi1sk',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':found': found },
      }),
    );
    await recordAdminAction({
      adminId: SYSTEM_ACTOR,
      actionType: 'verify_account_deletion',
      targetType: 'user',
      targetId: userId,
      details: { leftovers: found },
      reason: MSG.accountDeletion.sweepReason,
    });
    result.checked += 1;
    if (found.length) result.leftovers[userId] = found;
  }
  return result;
}
