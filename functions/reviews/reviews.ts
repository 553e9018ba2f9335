import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, Review, ReviewView } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import type { ReviewRequest } from '../../shared/schemas/review.js';
import { batchGet } from '../lib/batch.js';
import { db, decodeCursor, encodeCursor, tableName } from '../lib/db.js';
import { conflict, forbidden, notFound } from '../lib/errors.js';
import { imageUrl } from '../lib/images.js';
import { TransactionRefused, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys, timeOrdered, type ItemKey } from '../table.js';
import { reviewEvent } from '../jobs/job-events.js';
import { adminActionPut } from '../lib/admin-actions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import type { ProfileItem } from '../people/profiles.js';

/** A review as stored: the job's title is kept with it, since a paid job's title is final. */
interface ReviewItem extends Omit<Review, 'publishedAt'> {
  jobTitle: string;
  /** Absent while the review is hidden (double-blind); set once, when it is published. */
  publishedAt?: string;
}

function toReview(item: ReviewItem): Review {
  return {
    id: item.id,
    jobId: item.jobId,
    reviewerId: item.reviewerId,
    revieweeId: item.revieweeId,
    rating: item.rating,
    comment: item.comment ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    publishedAt: item.publishedAt ?? null,
  };
}

/** The two parties of a job review each other: the poster the worker, the worker the poster. */
function revieweeOf(job: JobItem, reviewerId: string): string | undefined {
  if (!job.workerId) return undefined;
  if (reviewerId === job.posterId) return job.workerId;
  return reviewerId === job.workerId ? job.posterId : undefined;
}

/** The reviewee's counters move with the review, in its transaction: the average is never recomputed. */
function ratingCounters(revieweeId: string, ratingDelta: number, reviewDelta: 0 | 1): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.profile(revieweeId),
      UpdateExpression: 'ADD ratingTotal :rating, reviewCount :count',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':rating': ratingDelta, ':count': reviewDelta },
    },
  };
}

/** A paid job's two review keys: the poster's review of the worker, the worker's of the poster. */
function jobReviewKeys(job: JobItem & { workerId: string }) {
  return { byPoster: keys.review(job.workerId, job.id, job.posterId), byWorker: keys.review(job.posterId, job.id, job.workerId) };
}

const readReview = async (key: ItemKey) =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item as ReviewItem | undefined;

/**
 * Publishes a hidden review: it enters its reviewee's list (GSI1) and counters, and goes live to
 * them, on condition that it is still hidden, so a review is counted exactly once whoever
 * publishes it (the other party's review, or the job's publication schedule).
 */
function publishWrites(review: ReviewItem, publishedAt: string): TransactItem[] {
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.review(review.revieweeId, review.jobId, review.reviewerId),
        UpdateExpression: 'SET publishedAt = :now, gsi1pk = :pk, gsi1sk = :sk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt)',
        ExpressionAttributeValues: { ':now': publishedAt, ':pk': keys.reviewsAbout(review.revieweeId), ':sk': timeOrdered(publishedAt, review.jobId) },
      },
    },
    ratingCounters(review.revieweeId, review.rating, 1),
    reviewEvent(toReview({ ...review, publishedAt })),
  ];
}

/**
 * A party of a paid job reviews the other (spec 2 §4, §5), double-blind (issue 26): the review
 * stays hidden until the other party has reviewed too, or until the job's publication schedule
 * closed the window (`reviewsPublishedAt` on the job). One transaction, with a check that the
 * job is still paid with these two parties:
 * - hidden: the review, on condition that the other review does not exist and the window is open;
 * - published: the review in the reviewee's list and counters, and the other party's hidden
 *   review published with it (both become visible together).
 * Any of those conditions failing means a race was lost (the other review, the schedule): the
 * step reads again and chooses anew.
 */
export async function submitReview(jobId: string, reviewerId: string, input: ReviewRequest): Promise<Review> {
  return retryWhileStale(async () => {
    const job = await getJob(jobId, { consistentRead: true });
    if (!job) throw notFound(MSG.jobs.notFound);
    const revieweeId = revieweeOf(job, reviewerId);
    if (!revieweeId) throw forbidden(MSG.reviews.onlyParties);
    if (job.status !== 'paid') throw conflict(MSG.reviews.onlyAfterPaid);

    const reviewKeys = jobReviewKeys({ ...job, workerId: job.workerId! });
    const otherKey = reviewerId === job.posterId ? reviewKeys.byWorker : reviewKeys.byPoster;
    const other = await readReview(otherKey);
    const now = new Date().toISOString();
    const publish = other !== undefined || job.reviewsPublishedAt !== undefined;
    const review: ReviewItem = {
      id: randomUUID(),
      jobId,
      jobTitle: job.title,
      reviewerId,
      revieweeId,
      ...input,
      createdAt: now,
      updatedAt: now,
      ...(publish ? { publishedAt: now } : {}),
    };
    const jobStillPaid = '#status = :paid AND posterId = :poster AND workerId = :worker AND attribute_not_exists(deletingAt)';
    const writes: TransactItem[] = [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.review(revieweeId, jobId, reviewerId),
            type: 'review',
            ...review,
            ...(publish ? { gsi1pk: keys.reviewsAbout(revieweeId), gsi1sk: timeOrdered(now, jobId) } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.job(jobId),
          ConditionExpression: publish ? jobStillPaid : `${jobStillPaid} AND attribute_not_exists(reviewsPublishedAt)`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':paid': 'paid', ':poster': job.posterId, ':worker': job.workerId },
        },
      },
      ...(publish
        ? [ratingCounters(revieweeId, input.rating, 1), reviewEvent(toReview(review)), ...(other && !other.publishedAt ? publishWrites(other, now) : [])]
        : [{ ConditionCheck: { TableName: tableName(), Key: otherKey, ConditionExpression: 'attribute_not_exists(pk)' } }]),
    ];
    try {
      await transactWrite(writes);
    } catch (error) {
      // The key says it all: this reviewer already reviewed this person for this job.
      if (error instanceof TransactionRefused && error.failed(0)) throw conflict(MSG.reviews.duplicate);
      if (error instanceof TransactionRefused && publish && error.failed(2)) throw notFound(MSG.auth.profileNotFound);
      throw error;
    }
    return toReview(review);
  });
}

/**
 * The job's publication schedule fired (REVIEW_PUBLICATION after the release): the window
 * closes (`reviewsPublishedAt` on the job, once) and the reviews still hidden are published,
 * in one transaction that also checks the absent ones are still absent, so a review written
 * meanwhile is either published here or, written after, published on arrival. Racing the
 * second review, each hidden review is published (and counted) by one of the two only.
 */
export async function publishJobReviews(jobId: string): Promise<void> {
  await retryWhileStale(async () => {
    const job = await getJob(jobId, { consistentRead: true });
    if (!job?.workerId || job.reviewsPublishedAt) return;
    const reviewKeys = Object.values(jobReviewKeys({ ...job, workerId: job.workerId }));
    const reviews = await Promise.all(reviewKeys.map(readReview));
    const now = new Date().toISOString();
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: 'SET reviewsPublishedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reviewsPublishedAt)',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      ...reviews.flatMap((review, i): TransactItem[] => {
        if (!review) return [{ ConditionCheck: { TableName: tableName(), Key: reviewKeys[i]!, ConditionExpression: 'attribute_not_exists(pk)' } }];
        return review.publishedAt ? [] : publishWrites(review, now);
      }),
    ]);
  });
}

/**
 * The admin changes a review (spec 2 §4: only the admin may), hidden or published. A published
 * review's counter moves by the difference, on condition that the stored rating is still the
 * one the difference was taken from and the review still as published as it was read; a
 * concurrent edit or publication makes this one read again. A hidden review stays hidden: no
 * counters, nothing sent to its reviewee. The change is logged (`edit_review`) in the same
 * transaction.
 */
export async function editReview(jobId: string, reviewerId: string, input: ReviewRequest, adminId: string): Promise<Review> {
  return retryWhileStale(async () => {
    const job = await getJob(jobId);
    const revieweeId = job && revieweeOf(job, reviewerId);
    if (!revieweeId) throw notFound(MSG.reviews.notFound);
    const key = keys.review(revieweeId, jobId, reviewerId);
    const before = await readReview(key);
    if (!before) throw notFound(MSG.reviews.notFound);
    const updatedAt = new Date().toISOString();
    const edited = toReview({ ...before, ...input, updatedAt });
    const published = before.publishedAt !== undefined;
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET rating = :rating, #comment = :comment, updatedAt = :now',
          ConditionExpression: published ? 'rating = :old' : 'rating = :old AND attribute_not_exists(publishedAt)',
          ExpressionAttributeNames: { '#comment': 'comment' },
          ExpressionAttributeValues: { ':rating': input.rating, ':comment': input.comment, ':now': updatedAt, ':old': before.rating },
        },
      },
      ...(published ? [ratingCounters(revieweeId, input.rating - before.rating, 0), reviewEvent(edited)] : []),
      adminActionPut({
        adminId,
        actionType: 'edit_review',
        targetType: 'review',
        targetId: `${jobId}#${reviewerId}`,
        details: { revieweeId, ratingBefore: before.rating, rating: input.rating },
        reason: '',
      }),
    ]);
    return edited;
  });
}

const REVIEWS_PAGE = 50;

/** Reviews about a user, newest first, with each reviewer's name and image. */
export async function listReviewsAbout(revieweeId: string, cursor?: string): Promise<Page<ReviewView>> {
  const startKey = decodeCursor(cursor, { index: 'GSI1', partition: keys.reviewsAbout(revieweeId) });
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.reviewsAbout(revieweeId) },
      ScanIndexForward: false,
      Limit: REVIEWS_PAGE,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: await withReviewers(Items as ReviewItem[]), nextCursor: encodeCursor(LastEvaluatedKey) };
}

/**
 * A job's reviews (at most one each way between its two parties), as its reviewees' lists show
 * them: two key reads. A hidden review is shown to its reviewer and to the admin only.
 */
export async function listJobReviews(jobId: string, caller: { userId: string; isAdmin: boolean }): Promise<ReviewView[]> {
  const job = await getJob(jobId);
  if (!job) throw notFound(MSG.jobs.notFound);
  if (!job.workerId) return [];
  const reviews = await batchGet<ReviewItem>(Object.values(jobReviewKeys({ ...job, workerId: job.workerId })));
  return withReviewers(
    reviews.filter((review): review is ReviewItem => review !== undefined && (review.publishedAt !== undefined || caller.isAdmin || review.reviewerId === caller.userId)),
  );
}

/** Reviews with each reviewer's name and image (one BatchGetItem). */
async function withReviewers(reviews: ReviewItem[]): Promise<ReviewView[]> {
  // BatchGetItem refuses duplicate keys, and one reviewer may have reviewed this user often.
  const reviewerIds = [...new Set(reviews.map((review) => review.reviewerId))];
  const profiles = await batchGet<ProfileItem>(reviewerIds.map((id) => keys.profile(id)));
  const reviewers = new Map(reviewerIds.map((id, i) => [id, profiles[i]]));
  return reviews.map((review) => {
    const reviewer = reviewers.get(review.reviewerId);
    return {
      review: toReview(review),
      reviewer: reviewer
        ? { id: reviewer.id, name: reviewer.name, profileImage: reviewer.profileImageKey ? imageUrl(reviewer.profileImageKey) : null }
        : null,
      jobTitle: review.jobTitle,
    };
  });
}
