import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { JobCardSummary, JobDetail, JobSummary, Page, PartyJob } from '../../shared/api.js';
import { moneyStateOf, workerSuccessRate, type JobStatus, type MoneyState } from '../../shared/job-process.js';
import { quotePrice } from '../../shared/money.js';
import type { CreateJobRequest } from '../../shared/schemas/job.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { imageUrl } from '../lib/images.js';
import { queryShardedPage } from '../lib/sharded-lists.js';
import { keys, timeOrdered } from '../table.js';

/** A top-up of a job's money (issue 45): a succeeded charge of the card its payment saved, for a higher price approved. */
export interface TopUpCharge {
  paymentIntentId: string;
  chargeId: string;
  /** What the poster was charged (the new price's total less what they had paid). */
  amount: number;
}

/** A job as stored: the summary's fields, with image keys where the summary has URLs. */
export interface JobItem extends Omit<PartyJob, 'images' | 'moneyState' | 'verifiedWorkersOnly' | 'openToOffers'> {
  /** Absent on jobs stored before money states were kept: moneyStateOf derives it from the status. */
  moneyState?: MoneyState;
  /** Absent on jobs stored before it existed: anyone may apply. */
  verifiedWorkersOnly?: boolean;
  /** Absent on jobs stored before offers existed: a fixed price. */
  openToOffers?: boolean;
  /** Its public questions (issue 45), counted so the list stays bounded; absent: none. */
  questionCount?: number;
  imageKeys: string[];
  fullAddress: string;
  /** Private, like the street address: the public sees only city and state. */
  latitude?: number;
  longitude?: number;
  /** Derived by the geocoding rule from fullAddress; `geocodedAddress` is what it geocoded. */
  geohash?: string;
  geocodedAddress?: string;
  /** The fullAddress geocoding did not find (none such: found, or not tried yet); its poster is told. */
  addressNotFound?: string;
  /** When the poster's payment succeeded: from then on the price is locked. */
  paidAt?: string;
  /** Set while the job's delete cascade runs; such a job is gone for every reader. */
  deletingAt?: string;
  /** The poster's payment (pay to post) and, once released, the transfer to the worker. */
  stripePaymentIntentId?: string;
  /** The card that payment saved to the poster's Customer, which a tip is charged to. */
  stripePaymentMethodId?: string;
  /** The payment's charge, which the job's transfers are funded from (Stripe refuses one beyond what is left of it). */
  stripeChargeId?: string;
  /** The charges of higher prices approved since (issue 45), oldest first: the job's money spans them all (functions/money/job-charges.ts). */
  topUps?: TopUpCharge[];
  /** The release's transfer (from the payment's charge) and, on a job of several charges, every transfer it made (one per charge). */
  transferId?: string;
  transferIds?: string[];
  /** An offer above the budget accepted whose charge waits for the poster's card step (issue 45): the acceptance after it finishes it. */
  offerTopUp?: { workerId: string; amount: number; intentId: string };
  /** Why the poster's payment tripped a suspicious-payment rule (the job gets flagged when it opens). */
  suspiciousPayment?: string;
  /** Only on unpaid drafts: epoch seconds after which the draft is gone (TTL). */
  expiresAt?: number;
  /** Set while the poster is suspended: the open job is left out of the feed and search. */
  posterSuspended?: boolean;
  /** The auto-release reminders sent for the pending release (their indexes in AUTO_RELEASE.reminderFractions). */
  autoReleaseReminders?: Set<number>;
  /** While the auto-release is paused: the release time it had, which a resume keeps when it is later than the minimum. */
  pausedReleaseAt?: string;
  /** A reversal's Stripe object (the released transfer, undone). */
  reversalId?: string;
  /** Set by the job's review publication schedule: from then on its reviews are published as they are written. */
  reviewsPublishedAt?: string;
  /** While its money is pending: the decision the executor carries out (functions/money/executor.ts). */
  moneyDecisionId?: string;
  /** The countdown (its `autoReleaseAt`) a blocked auto-release belongs to: a later one is not released early when the account gets ready. */
  autoReleaseBlockedFor?: string;
  /** Disputes filed on the job and not yet resolved: its auto-release waits for all of them. */
  openDisputes?: number;
  /** While a chargeback holds the money: the money state it had before, which a won chargeback gives back. */
  moneyBeforeChargeback?: MoneyState;
}

/** The index keys a job item carries; recomputed on every status or worker change. */
export function jobIndexKeys(job: Pick<JobItem, 'id' | 'status' | 'posterId' | 'workerId' | 'createdAt'>) {
  return {
    gsi1pk: keys.jobsByStatus(job.status).partitionOf(job.id),
    gsi1sk: timeOrdered(job.createdAt, job.id),
    gsi2pk: keys.jobsByPoster(job.posterId),
    gsi2sk: keys.statusOrdered(job.status, job.createdAt, job.id),
    ...(job.workerId
      ? { gsi3pk: keys.jobsByWorker(job.workerId), gsi3sk: keys.statusOrdered(job.status, job.createdAt, job.id) }
      : {}),
  };
}

export function toJobSummary(item: JobItem): JobSummary {
  return {
    id: item.id,
    title: item.title,
    description: item.description,
    location: item.location,
    payment: item.payment,
    platformFee: item.platformFee,
    postedAmount: item.postedAmount,
    category: item.category,
    date: item.date,
    duration: item.duration,
    status: item.status,
    moneyState: moneyStateOf(item),
    posterId: item.posterId,
    ...(item.workerId ? { workerId: item.workerId } : {}),
    // Jobs stored before the counter existed have none: no application was ever counted.
    pendingApplications: item.pendingApplications ?? 0,
    requirements: item.requirements,
    skills: item.skills,
    images: item.imageKeys.map(imageUrl),
    verifiedWorkersOnly: item.verifiedWorkersOnly ?? false,
    openToOffers: item.openToOffers ?? false,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/**
 * How much of the description a card keeps: the card shows three lines, and three lines of the
 * widest card (one column, just under 768 px) hold about 280 characters.
 */
const CARD_DESCRIPTION_LENGTH = 300;

/**
 * A job's card as the search index stores it: the card's fields but the job's id and creation
 * time (the keys of every term item say those already), with image keys where the card has URLs.
 */
export type JobCardItem = Omit<JobCardSummary, 'id' | 'createdAt' | 'images' | 'verifiedWorkersOnly' | 'openToOffers'> & { imageKeys: string[]; verifiedWorkersOnly?: true; openToOffers?: true };

/** The text cut after at most `length` characters, at a space when there is one, marked with an ellipsis. */
function shortened(text: string, length: number): string {
  const characters = Array.from(text);
  if (characters.length <= length) return text;
  const head = characters.slice(0, length).join('');
  const lastSpace = head.search(/\s\S*$/);
  return `${(lastSpace > 0 ? head.slice(0, lastSpace) : head).trimEnd()}…`;
}

/** What a card of the job shows: its description shortened, its first image only. */
export function jobCardOf(job: JobItem): JobCardItem {
  return {
    title: job.title,
    description: shortened(job.description, CARD_DESCRIPTION_LENGTH),
    location: job.location,
    payment: job.payment,
    postedAmount: job.postedAmount,
    status: job.status,
    posterId: job.posterId,
    skills: job.skills,
    imageKeys: job.imageKeys.slice(0, 1),
    // Kept on a card only when set: the index's items stay as small as before for every other job.
    ...(job.verifiedWorkersOnly ? { verifiedWorkersOnly: true as const } : {}),
    ...(job.openToOffers ? { openToOffers: true as const } : {}),
  };
}

export function toJobCard(job: Pick<JobItem, 'id' | 'createdAt'>, { imageKeys, verifiedWorkersOnly, openToOffers, ...card }: JobCardItem): JobCardSummary {
  return { id: job.id, ...card, images: imageKeys.map(imageUrl), verifiedWorkersOnly: verifiedWorkersOnly ?? false, openToOffers: openToOffers ?? false, createdAt: job.createdAt };
}

/** The job as its poster or assigned worker sees it: the summary and what only the two of them may read. */
export function toPartyJob(item: JobItem): PartyJob {
  return {
    ...toJobSummary(item),
    ...(item.declineReason ? { declineReason: item.declineReason } : {}),
    ...(item.assignedAt ? { assignedAt: item.assignedAt } : {}),
    ...(item.autoReleaseAt ? { autoReleaseAt: item.autoReleaseAt } : {}),
    ...(item.releasedAt ? { releasedAt: item.releasedAt } : {}),
    ...(item.tip ? { tip: item.tip, tippedAt: item.tippedAt } : {}),
    ...(item.autoReleasePausedAt ? { autoReleasePausedAt: item.autoReleasePausedAt, autoReleasePauseReason: item.autoReleasePauseReason } : {}),
    ...(item.autoReleaseBlockedAt ? { autoReleaseBlockedAt: item.autoReleaseBlockedAt, autoReleaseBlockedReason: item.autoReleaseBlockedReason } : {}),
    ...(item.refundReason ? { refundReason: item.refundReason } : {}),
    ...(item.splitToWorker !== undefined ? { splitToWorker: item.splitToWorker, splitRefunded: item.splitRefunded } : {}),
    ...(item.refundedWhileHeld ? { refundedWhileHeld: item.refundedWhileHeld } : {}),
    ...(item.transferredAmount !== undefined ? { transferredAmount: item.transferredAmount } : {}),
    ...(item.tipState ? { tipState: item.tipState } : {}),
    ...(item.chargeback ? { chargeback: item.chargeback } : {}),
    ...(item.reversal ? { reversal: item.reversal } : {}),
    // Only while assigned: a request the job moved on from (completed, cancelled) waits for nobody.
    ...(item.priceChange && item.status === 'assigned' ? { priceChange: item.priceChange } : {}),
  };
}

/**
 * The detail view: the full address (and the parties' private fields) only for the owner and the
 * assigned worker (spec 1 §6); the admin sees where the job's money is (a chargeback, a reversal)
 * as the parties do, but not the address.
 */
export function toJobDetail(item: JobItem, viewerId: string | null, poster: JobDetail['poster'], viewerIsAdmin = false): JobDetail {
  const isParty = viewerId !== null && (viewerId === item.posterId || viewerId === item.workerId);
  if (!isParty) return { ...(viewerIsAdmin ? toPartyJob(item) : toJobSummary(item)), poster };
  const notFound = viewerId === item.posterId && item.addressNotFound === item.fullAddress;
  return { ...toPartyJob(item), fullAddress: item.fullAddress, poster, ...(notFound ? { addressNotFound: true as const } : {}) };
}

/** The fields of a job that its poster's form decides (on creation and on edit). */
export function jobFieldsOf(request: CreateJobRequest) {
  const { street, city, state } = request.address;
  const price = quotePrice(request.payment);
  return {
    title: request.title,
    description: request.description,
    location: `${city}, ${state}`,
    fullAddress: `${street}, ${city}, ${state}`,
    payment: price.payment,
    platformFee: price.platformFee,
    postedAmount: price.postedAmount,
    category: request.category,
    date: request.date,
    duration: request.duration,
    requirements: request.requirements,
    skills: request.skills,
    imageKeys: request.images,
    verifiedWorkersOnly: request.verifiedWorkersOnly,
    openToOffers: request.openToOffers,
  };
}

export function newJob(request: CreateJobRequest, posterId: string, now: string, status: JobStatus = 'open'): JobItem {
  // A posted job starts as an unpaid draft; the demo data makes jobs further along directly, their money where their status says.
  return { id: randomUUID(), ...jobFieldsOf(request), status, moneyState: moneyStateOf({ status }), posterId, pendingApplications: 0, createdAt: now, updatedAt: now };
}

export async function putNewJob(job: JobItem): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.job(job.id), type: 'job', ...job, ...jobIndexKeys(job) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** `consistentRead`: for deciding again after a conditional write lost a race. */
export async function getJob(jobId: string, options: { includeDeleting?: boolean; consistentRead?: boolean } = {}): Promise<JobItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.job(jobId), ConsistentRead: options.consistentRead }));
  return existingJob(Item as JobItem | undefined, options);
}

/** A job item as read, unless it no longer counts as a job: an expired draft, or (unless asked for) one being deleted. */
export function existingJob(job: JobItem | undefined, options: { includeDeleting?: boolean } = {}): JobItem | undefined {
  if (job?.expiresAt !== undefined && job.expiresAt < Date.now() / 1000) return undefined; // an expired draft
  return job?.deletingAt && !options.includeDeleting ? undefined : job;
}

/** A worker's jobs (GSI3): in one status (e.g. the paid ones for earnings), or all of them. */
export function listWorkerJobs(workerId: string, status?: JobStatus): Promise<JobItem[]> {
  return queryAll<JobItem>({
    IndexName: 'GSI3',
    KeyConditionExpression: status ? 'gsi3pk = :pk AND begins_with(gsi3sk, :status)' : 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.jobsByWorker(workerId), ...(status ? { ':status': `${status}#` } : {}) },
    ScanIndexForward: false,
  });
}

/**
 * A worker's success rate (spec 2 §9), as their dashboard works it out, from the statuses of
 * their jobs alone: GSI3's sort key begins with the status, so only the keys are read.
 */
export async function workerSuccessRateOf(workerId: string): Promise<number | null> {
  const keysOnly = await queryAll<{ gsi3sk: string }>({
    IndexName: 'GSI3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.jobsByWorker(workerId) },
    ProjectionExpression: 'gsi3sk',
  });
  return workerSuccessRate(keysOnly.map(({ gsi3sk }) => ({ status: gsi3sk.split('#')[0] as JobStatus })));
}

/** A poster's jobs, all statuses, grouped by status then oldest first (GSI2). */
export function listPosterJobs(posterId: string): Promise<JobItem[]> {
  return queryAll<JobItem>({
    IndexName: 'GSI2',
    KeyConditionExpression: 'gsi2pk = :pk',
    // Not being deleted, and not an unpaid draft past its expiry (TTL deletes lazily).
    FilterExpression: 'attribute_not_exists(deletingAt) AND (attribute_not_exists(expiresAt) OR expiresAt > :now)',
    ExpressionAttributeValues: { ':pk': keys.jobsByPoster(posterId), ':now': Math.floor(Date.now() / 1000) },
  });
}

/** The caller's jobs, newest first: a worker's assigned ones (GSI3), anyone else's posted ones (GSI2). One query. */
export async function listOwnJobs(user: { id: string; role: string }): Promise<JobItem[]> {
  const jobs = user.role === 'worker' ? await listWorkerJobs(user.id) : await listPosterJobs(user.id);
  return jobs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * Jobs in one status, newest first, each as `view` shows it: one Query on GSI1 per shard of the
 * status, in parallel, merged (functions/lib/sharded-lists.ts). `listedOnly`: not those of a suspended poster.
 */
export async function listJobsByStatus<View>(
  status: JobStatus,
  options: { limit: number; cursor?: string; excludePosterId?: string; listedOnly?: boolean },
  view: (job: JobItem) => View,
): Promise<Page<View>> {
  // listedOnly: the public feed, without the jobs of suspended posters (rare, so a filter costs little).
  const filters = [...(options.excludePosterId ? ['posterId <> :me'] : []), ...(options.listedOnly ? ['attribute_not_exists(posterSuspended)'] : [])];
  const page = await queryShardedPage<JobItem>(
    keys.jobsByStatus(status).partitions,
    {
      IndexName: 'GSI1',
      ...(options.excludePosterId ? { ExpressionAttributeValues: { ':me': options.excludePosterId } } : {}),
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    },
    options.limit,
    options.cursor,
  );
  return { items: page.items.map(view), nextCursor: page.nextCursor };
}
