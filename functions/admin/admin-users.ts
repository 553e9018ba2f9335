import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminResetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ADMIN_PAGE_SIZE, type AdminUserDetail, type AdminUserSummary, type UserAction } from '../../shared/admin.js';
import type { AdminUsersQuery } from '../../shared/schemas/admin.js';
import type { Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { batchGet } from '../lib/batch.js';
import { db, decodeCursor, encodeCursor, tableName } from '../lib/db.js';
import { env } from '../lib/env.js';
import { badRequest, conflict, notFound } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { closeUserConnections } from '../lib/sockets.js';
import { retryLostRaces, transactWrite, TransactionRefused } from '../lib/transactions.js';
import { JOB_EVENT } from '../routes.js';
import { keys } from '../table.js';
import { adminActionPut, adminActionsAbout, recordAdminAction } from '../lib/admin-actions.js';
import { listWorkerApplications } from '../applications/applications.js';
import { listDisputesOf } from '../disputes/disputes.js';
import { emailSuppression } from '../notifications/email-suppressions.js';
import { jobEvent } from '../jobs/job-events.js';
import { flagForSuspension } from './job-flags.js';
import { adminPaymentRecords } from '../money/job-payments.js';
import { listPosterJobs, listWorkerJobs, toJobSummary, type JobItem } from '../jobs/jobs.js';
import { revokeIdentity } from '../people/identity.js';
import { averageRating, getProfile, type ProfileItem } from '../people/profiles.js';
import { listReviewsAbout } from '../reviews/reviews.js';

/**
 * The admin's users (issue 27; DECISIONS.md "Suspension"): found by a name or email prefix
 * through the profiles' search keys (GSI2 by name, GSI3 by email; docs/data-model.md), one
 * page per user, and the actions on them, each with a reason and an audit entry.
 */

const cognito = new CognitoIdentityProviderClient({});

export function toAdminUserSummary(profile: ProfileItem): AdminUserSummary {
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    role: profile.role,
    accountStatus: profile.accountStatus ?? 'active',
    identityVerified: profile.identityStatus === 'verified',
    createdAt: profile.createdAt,
  };
}

/** The cursor of a search: each index's own, null once that index is read to its end. */
interface SearchCursor {
  names: string | null;
  emails: string | null;
}

function decodeSearchCursor(cursor: string | undefined): SearchCursor | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object') {
      const { names, emails } = value as Record<string, unknown>;
      if ((names === null || typeof names === 'string') && (emails === null || typeof emails === 'string')) return { names, emails };
    }
  } catch {
    // answered below
  }
  throw badRequest(MSG.backend.invalidCursor);
}

/** One page of one search index: users whose name (GSI2) or email (GSI3) starts with the prefix, filtered by role and status. */
async function searchIndex(index: 'GSI2' | 'GSI3', query: AdminUsersQuery, cursor: string | undefined): Promise<{ items: ProfileItem[]; next: string | null }> {
  const partition = index === 'GSI2' ? keys.usersByName() : keys.usersByEmail();
  const field = index.toLowerCase();
  const values: Record<string, unknown> = { ':pk': partition };
  const filters: string[] = [];
  const names: Record<string, string> = {};
  if (query.q) values[':prefix'] = query.q.toLowerCase();
  if (query.role) {
    filters.push('#role = :role');
    names['#role'] = 'role';
    values[':role'] = query.role;
  }
  if (query.verification === 'verified') {
    filters.push('identityStatus = :verified');
    values[':verified'] = 'verified';
  } else if (query.verification === 'unverified') {
    filters.push('(attribute_not_exists(identityStatus) OR identityStatus <> :verified)');
    values[':verified'] = 'verified';
  }
  if (query.status === 'suspended') {
    filters.push('accountStatus = :suspended');
    values[':suspended'] = 'suspended';
  } else if (query.status === 'active') {
    filters.push('(attribute_not_exists(accountStatus) OR accountStatus <> :suspended)');
    values[':suspended'] = 'suspended';
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: index,
    KeyConditionExpression: query.q ? `${field}pk = :pk AND begins_with(${field}sk, :prefix)` : `${field}pk = :pk`,
    ExpressionAttributeValues: values,
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    Limit: ADMIN_PAGE_SIZE,
    ExclusiveStartKey: decodeCursor(cursor, { index, partition }),
  };
  const { Items = [], LastEvaluatedKey } = await db.send(new QueryCommand(input));
  return { items: Items as ProfileItem[], next: encodeCursor(LastEvaluatedKey) };
}

/**
 * GET /admin/users: without a text, everyone by name (GSI2); with one, those whose name or
 * email starts with it (GSI2 and GSI3, one query each, merged and sorted by name). A filtered
 * page may hold fewer than 50 rows while more follow: the cursor says so.
 */
export async function searchUsers(query: AdminUsersQuery): Promise<Page<AdminUserSummary>> {
  const cursor = decodeSearchCursor(query.cursor);
  if (!query.q) {
    const page = await searchIndex('GSI2', query, cursor?.names ?? undefined);
    return { items: page.items.map(toAdminUserSummary), nextCursor: page.next };
  }
  const [byName, byEmail] = await Promise.all([
    !cursor || cursor.names ? searchIndex('GSI2', query, cursor?.names ?? undefined) : { items: [], next: null },
    !cursor || cursor.emails ? searchIndex('GSI3', query, cursor?.emails ?? undefined) : { items: [], next: null },
  ]);
  const found = new Map([...byName.items, ...byEmail.items].map((profile) => [profile.id, profile]));
  const items = [...found.values()].sort((a, b) => a.name.localeCompare(b.name)).map(toAdminUserSummary);
  const more = byName.next !== null || byEmail.next !== null;
  return { items, nextCursor: more ? Buffer.from(JSON.stringify({ names: byName.next, emails: byEmail.next })).toString('base64url') : null };
}

/** GET /admin/users/{id}: the profile, then every list about the user in parallel, each one indexed query (or two, for disputes). */
export async function adminUserDetail(userId: string): Promise<AdminUserDetail> {
  const profile = await getProfile(userId);
  if (!profile) throw notFound(MSG.admin.userNotFound);
  const [posted, worked, applications, disputes, reviews, posterPayments, auditTrail, emailStopped] = await Promise.all([
    listPosterJobs(userId),
    listWorkerJobs(userId),
    listWorkerApplications(userId),
    listDisputesOf(userId),
    listReviewsAbout(userId),
    db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.paymentsOfPoster(userId) },
        ScanIndexForward: false,
        Limit: ADMIN_PAGE_SIZE,
      }),
    ),
    adminActionsAbout(userId),
    emailSuppression(profile.email),
  ]);
  // A worker's payments are reached through the jobs they were paid for.
  const workerPayments = await batchGet<Record<string, unknown>>(worked.filter((job) => job.stripePaymentIntentId).map((job) => keys.payment(job.stripePaymentIntentId!)));
  const payments = await adminPaymentRecords([...(posterPayments.Items ?? []), ...workerPayments.filter((payment) => payment !== undefined)]);
  const newestFirst = (a: JobItem, b: JobItem) => b.createdAt.localeCompare(a.createdAt);
  return {
    user: {
      ...toAdminUserSummary(profile),
      bio: profile.bio,
      location: profile.location,
      rating: averageRating(profile),
      reviewCount: profile.reviewCount,
      completedJobs: profile.completedJobs,
      suspension: profile.accountStatus === 'suspended' ? { reason: profile.suspensionReason ?? '', at: profile.suspendedAt ?? '' } : null,
      emailStopped,
      identity: profile.identityStatus ? { status: profile.identityStatus, verifiedAt: profile.identityVerifiedAt ?? null } : null,
    },
    paymentAccount: { ...profile.paymentAccount, connected: Boolean(profile.stripeAccountId) },
    jobsPosted: posted.sort(newestFirst).map(toJobSummary),
    jobsWorked: worked.map(toJobSummary),
    applications,
    disputes,
    reviews: reviews.items,
    payments: payments.sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    auditTrail,
  };
}

/** The user an action is about: 404 for an unknown id; the admin's own account is out of reach. */
async function targetOf(userId: string): Promise<ProfileItem> {
  const profile = await getProfile(userId);
  if (!profile) throw notFound(MSG.admin.userNotFound);
  if (profile.role === 'admin') throw badRequest(MSG.admin.adminAccountOutOfReach);
  return profile;
}

const userPool = () => ({ UserPoolId: env('userPoolId') });

/**
 * The profile's status change with its audit entry, in one transaction whose condition is the
 * status before: of two racing suspensions one records, the other answers 409.
 */
async function changeStatus(profile: ProfileItem, action: 'suspend' | 'reinstate', reason: string, adminId: string): Promise<void> {
  const suspending = action === 'suspend';
  const now = new Date().toISOString();
  const write = () =>
    transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.profile(profile.id),
          UpdateExpression: suspending
            ? 'SET accountStatus = :to, suspensionReason = :reason, suspendedAt = :now, updatedAt = :now'
            : 'SET accountStatus = :to, updatedAt = :now REMOVE suspensionReason, suspendedAt',
          ConditionExpression: suspending ? 'attribute_not_exists(accountStatus) OR accountStatus <> :to' : 'accountStatus = :from',
          ExpressionAttributeValues: suspending ? { ':to': 'suspended', ':reason': reason, ':now': now } : { ':to': 'active', ':from': 'suspended', ':now': now },
        },
      },
      adminActionPut({
        adminId,
        actionType: suspending ? 'suspend_user' : 'reinstate_user',
        targetType: 'user',
        targetId: profile.id,
        details: { name: profile.name, email: profile.email, role: profile.role },
        reason,
      }),
    ]);
  try {
    await retryLostRaces(write);
  } catch (error) {
    if (error instanceof TransactionRefused) throw conflict(suspending ? MSG.admin.alreadySuspended : MSG.admin.notSuspended);
    throw error;
  }
}

/** Sets or clears `posterSuspended` on each job, with its event in the same write (the search index, the live feed). */
async function setJobsHidden(jobs: JobItem[], hidden: boolean): Promise<void> {
  for (const job of jobs) {
    await retryLostRaces(() => transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(job.id),
          UpdateExpression: hidden ? 'SET posterSuspended = :true' : 'REMOVE posterSuspended',
          ConditionExpression: 'attribute_exists(pk)',
          ...(hidden ? { ExpressionAttributeValues: { ':true': true } } : {}),
        },
      },
      jobEvent(JOB_EVENT.updated, { ...job, posterSuspended: hidden || undefined }, hidden ? 'hidden' : 'shown'),
    ]));
  }
}

/**
 * Suspension: Cognito first (disable, which refuses sign-in, and a global sign-out, which
 * revokes their refresh tokens; both idempotent, so a retry after a failure further on is
 * safe), then the profile and the audit entry, then their open sockets closed, their open
 * jobs hidden and the jobs they are a party to in progress flagged for the admin.
 */
async function suspend(profile: ProfileItem, reason: string, adminId: string): Promise<void> {
  if (profile.accountStatus === 'suspended') throw conflict(MSG.admin.alreadySuspended);
  await cognito.send(new AdminDisableUserCommand({ ...userPool(), Username: profile.email }));
  await cognito.send(new AdminUserGlobalSignOutCommand({ ...userPool(), Username: profile.email }));
  await changeStatus(profile, 'suspend', reason, adminId);
  const closed = await closeUserConnections(profile.id);
  const [posted, worked] = await Promise.all([listPosterJobs(profile.id), listWorkerJobs(profile.id)]);
  await setJobsHidden(
    posted.filter((job) => job.status === 'open'),
    true,
  );
  const inProgress = [...posted, ...worked].filter((job) => job.status === 'assigned' || job.status === 'completed');
  await Promise.all(inProgress.map((job) => flagForSuspension(job, MSG.admin.suspendedJobFlagReason(profile.name, reason))));
  logger.info('user suspended', { userId: profile.id, socketsClosed: closed, jobsFlagged: inProgress.length });
}

/** Reinstatement: Cognito enables them, the profile is active again, their open jobs are listed again. */
async function reinstate(profile: ProfileItem, reason: string, adminId: string): Promise<void> {
  if (profile.accountStatus !== 'suspended') throw conflict(MSG.admin.notSuspended);
  await cognito.send(new AdminEnableUserCommand({ ...userPool(), Username: profile.email }));
  await changeStatus(profile, 'reinstate', reason, adminId);
  await setJobsHidden(
    (await listPosterJobs(profile.id)).filter((job) => job.posterSuspended),
    false,
  );
}

/** Cognito mails the user a code to choose a new password; their current one stops working. */
async function resetPassword(profile: ProfileItem, reason: string, adminId: string): Promise<void> {
  await cognito.send(new AdminResetUserPasswordCommand({ ...userPool(), Username: profile.email }));
  await recordAdminAction({
    adminId,
    actionType: 'reset_user_password',
    targetType: 'user',
    targetId: profile.id,
    details: { name: profile.name, email: profile.email },
    reason,
  });
}

/** The "ID verified" badge removed, with the audit entry and the user's notice in one transaction (functions/people/identity.ts). */
async function revokeVerification(profile: ProfileItem, reason: string, adminId: string): Promise<void> {
  await revokeIdentity(
    profile,
    adminActionPut({ adminId, actionType: 'revoke_identity', targetType: 'user', targetId: profile.id, details: { name: profile.name, email: profile.email }, reason }),
  );
}

const USER_ACTION_STEPS: Record<UserAction, (profile: ProfileItem, reason: string, adminId: string) => Promise<void>> = {
  suspend,
  reinstate,
  'password-reset': resetPassword,
  'identity-revocation': revokeVerification,
};

/** One of the admin's actions on a user; answers the user as they are after it. */
export async function actOnUser(action: UserAction, userId: string, reason: string, adminId: string): Promise<AdminUserSummary> {
  const profile = await targetOf(userId);
  await USER_ACTION_STEPS[action](profile, reason, adminId);
  return toAdminUserSummary((await getProfile(userId)) ?? profile);
}
