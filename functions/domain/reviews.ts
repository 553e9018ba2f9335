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
import { keys, timeOrdered } from '../table.js';
import { reviewEvent } from './events.js';
import { adminActionPut } from './admin-actions.js';
import { getJob, type JobItem } from './jobs.js';
import type { ProfileItem } from './profiles.js';

/** A review as stored: the job's title is kept with it, since a paid job's title is final. */
interface ReviewItem extends Review {
  jobTitle: string;
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

/**
 * A party of a paid job reviews the other (spec 2 §4, §5). One transaction: the review on a key
 * that exists once per reviewer, job and reviewee; the reviewee's rating counters; and a check
 * that the job is still paid with these two parties. Concurrent reviews of one user all land
 * in the counters (ADD), so the derived average stays exact.
 */
export async function submitReview(jobId: string, reviewerId: string, input: ReviewRequest): Promise<Review> {
  return retryWhileStale(async () => {
    const job = await getJob(jobId, { consistentRead: true });
    if (!job) throw notFound(MSG.jobs.notFound);
    const revieweeId = revieweeOf(job, reviewerId);
    if (!revieweeId) throw forbidden(MSG.reviews.onlyParties);
    if (job.status !== 'paid') throw conflict(MSG.reviews.onlyAfterPaid);

    const now = new Date().toISOString();
    const review: ReviewItem = { id: randomUUID(), jobId, jobTitle: job.title, reviewerId, revieweeId, ...input, createdAt: now, updatedAt: now };
    try {
      await transactWrite([
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.review(revieweeId, jobId, reviewerId), type: 'review', ...review, gsi1pk: keys.reviewsAbout(revieweeId), gsi1sk: timeOrdered(now, jobId) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ratingCounters(revieweeId, input.rating, 1),
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.job(jobId),
            ConditionExpression: '#status = :paid AND posterId = :poster AND workerId = :worker AND attribute_not_exists(deletingAt)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':paid': 'paid', ':poster': job.posterId, ':worker': job.workerId },
          },
        },
        reviewEvent(toReview(review)),
      ]);
    } catch (error) {
      // The key says it all: this reviewer already reviewed this person for this job.
      if (error instanceof TransactionRefused && error.failed(0)) throw conflict(MSG.reviews.duplicate);
      if (error instanceof TransactionRefused && error.failed(1)) throw notFound(MSG.auth.profileNotFound);
      throw error;
    }
    return toReview(review);
  });
}

/**
 * The admin changes a review (spec 2 §4: only the admin may). The counter moves by the
 * difference, on condition that the stored rating is still the one the difference was taken
 * from; a concurrent edit makes this one read again. The change is logged (`edit_review`) in
 * the same transaction.
 */
export async function editReview(jobId: string, reviewerId: string, input: ReviewRequest, adminId: string): Promise<Review> {
  return retryWhileStale(async () => {
    const job = await getJob(jobId);
    const revieweeId = job && revieweeOf(job, reviewerId);
    if (!revieweeId) throw notFound(MSG.reviews.notFound);
    const key = keys.review(revieweeId, jobId, reviewerId);
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    if (!Item) throw notFound(MSG.reviews.notFound);
    const before = Item as ReviewItem;
    const updatedAt = new Date().toISOString();
    const edited = toReview({ ...before, ...input, updatedAt });
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET rating = :rating, #comment = :comment, updatedAt = :now',
          ConditionExpression: 'rating = :old',
          ExpressionAttributeNames: { '#comment': 'comment' },
          ExpressionAttributeValues: { ':rating': input.rating, ':comment': input.comment, ':now': updatedAt, ':old': before.rating },
        },
      },
      ratingCounters(revieweeId, input.rating - before.rating, 0),
      reviewEvent(edited),
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

/** A job's reviews (at most one each way between its two parties), as its reviewees' lists show them: two key reads. */
export async function listJobReviews(jobId: string): Promise<ReviewView[]> {
  const job = await getJob(jobId);
  if (!job) throw notFound(MSG.jobs.notFound);
  if (!job.workerId) return [];
  const reviews = await batchGet<ReviewItem>([keys.review(job.workerId, job.id, job.posterId), keys.review(job.posterId, job.id, job.workerId)]);
  return withReviewers(reviews.filter((review): review is ReviewItem => review !== undefined));
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
