import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { JobSummary, Page } from '../../shared/api.js';
import type { JobCategory } from '../../shared/categories.js';
import { categoryTerm, prefixes, searchWords } from '../../shared/search.js';
import { batchGet, batchWrite } from '../lib/batch.js';
import { db, decodeCursor, encodeCursor, queryAll, tableName } from '../lib/db.js';
import { keys, timeOrdered } from '../table.js';
import { getJob, listJobsByStatus, toJobSummary, type JobItem } from './jobs.js';

/**
 * The open-jobs search index: an inverted index of term items in each open job's partition
 * (docs/data-model.md, pattern 7). Title, category, location and skills words are indexed
 * with their prefixes (so "clean" finds "cleaning"); the first description words in full.
 * A search is a Query on the most selective term's partition (filtered on the other words,
 * which every term item carries), then one BatchGetItem of the page's jobs.
 */
const MAX_DESCRIPTION_WORDS = 60;
/** Queries one page of a filtered search may take before it answers with what it found. */
const MAX_READS_PER_PAGE = 5;

export function jobTerms(job: Pick<JobItem, 'status' | 'title' | 'category' | 'location' | 'skills' | 'description'>): Set<string> {
  const terms = new Set<string>();
  if (job.status !== 'open') return terms;
  terms.add(categoryTerm(job.category));
  for (const word of searchWords([job.title, job.category, job.location, ...job.skills].join(' '))) {
    terms.add(word);
    for (const prefix of prefixes(word)) terms.add(prefix);
  }
  for (const word of searchWords(job.description).slice(0, MAX_DESCRIPTION_WORDS)) terms.add(word);
  return terms;
}

interface TermItem {
  sk: string;
  category: string;
  posterId: string;
  terms?: Set<string>;
}

const sameTerms = (a: Set<string> | undefined, b: Set<string>) => a !== undefined && a.size === b.size && [...b].every((term) => a.has(term));

/** What the terms are made of: if it is the same before and after a sync, the sync was current. */
const termSource = (job: JobItem | undefined) =>
  job ? JSON.stringify([job.status, job.title, job.category, job.location, job.skills, job.description]) : 'gone';

/**
 * Brings a job's term items in line with the job as it is now (none unless open). It reads
 * the current job rather than trusting the event, so a late or repeated event is harmless;
 * and two syncs of one job can run at once (EventBridge delivers in parallel), so after
 * writing it reads the job again and goes round once more if the job changed meanwhile: the
 * last sync to finish always leaves the index as the job is.
 */
export async function syncSearchTerms(jobId: string): Promise<{ written: number; deleted: number }> {
  const totals = { written: 0, deleted: 0 };
  let job = await getJob(jobId, { consistentRead: true });
  for (let round = 0; round < 5; round++) {
    const result = await writeTerms(jobId, job);
    totals.written += result.written;
    totals.deleted += result.deleted;
    const now = await getJob(jobId, { consistentRead: true });
    if (termSource(now) === termSource(job)) break;
    job = now;
  }
  return totals;
}

async function writeTerms(jobId: string, job: JobItem | undefined): Promise<{ written: number; deleted: number }> {
  const wanted = job ? jobTerms(job) : new Set<string>();
  const existing = await queryAll<TermItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':term': keys.jobTermPrefix() },
    ProjectionExpression: 'sk, category, posterId, terms',
    ConsistentRead: true,
  });

  // Items written for an older version of the job (category or terms changed) are rewritten.
  const current = new Set(
    existing.filter((item) => job && item.category === job.category && sameTerms(item.terms, wanted)).map((item) => item.sk.slice(keys.jobTermPrefix().length)),
  );
  const deletes = existing.filter((item) => !wanted.has(item.sk.slice(keys.jobTermPrefix().length))).map((item) => ({
    DeleteRequest: { Key: keys.jobTerm(jobId, item.sk.slice(keys.jobTermPrefix().length)) },
  }));
  const puts = job
    ? [...wanted]
        .filter((term) => !current.has(term))
        .map((term) => ({
          PutRequest: {
            Item: {
              ...keys.jobTerm(jobId, term),
              type: 'jobTerm',
              jobId,
              posterId: job.posterId,
              category: job.category,
              // Every term of the job, so a query on one term can filter on the others.
              terms: wanted,
              gsi1pk: keys.jobsWithTerm(term),
              gsi1sk: timeOrdered(job.createdAt, jobId),
            },
          },
        }))
    : [];
  await batchWrite([...deletes, ...puts]);
  return { written: puts.length, deleted: deletes.length };
}

export interface BrowseQuery {
  text?: string;
  category?: JobCategory;
  limit: number;
  cursor?: string;
  excludePosterId?: string;
}

/** Open jobs newest first, optionally matching words and a category. */
export async function browseOpenJobs(query: BrowseQuery): Promise<Page<JobSummary>> {
  const words = searchWords(query.text ?? '');
  if (words.length === 0 && !query.category) {
    return listJobsByStatus('open', { limit: query.limit, cursor: query.cursor, excludePosterId: query.excludePosterId });
  }
  // The longest word is the likeliest to be rare; a category alone is a term of its own.
  const anchor = words.length ? words.reduce((a, b) => (b.length > a.length ? b : a)) : categoryTerm(query.category!);
  let startKey: Record<string, unknown> | undefined = decodeCursor(query.cursor, { index: 'GSI1', partition: keys.jobsWithTerm(anchor) });
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':term': keys.jobsWithTerm(anchor) };
  words
    .filter((word) => word !== anchor)
    .forEach((word, i) => {
      filters.push(`contains(terms, :w${i})`);
      values[`:w${i}`] = word;
    });
  if (words.length && query.category) {
    filters.push('category = :category');
    values[':category'] = query.category;
  }
  if (query.excludePosterId) {
    filters.push('posterId <> :me');
    values[':me'] = query.excludePosterId;
  }
  // A filter can leave a page short: read on (a few more queries at most) to fill it.
  const jobIds: string[] = [];
  for (let reads = 0; reads < MAX_READS_PER_PAGE && jobIds.length < query.limit; reads++) {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'gsi1pk = :term',
        ExpressionAttributeValues: values,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ProjectionExpression: 'jobId, gsi1pk, gsi1sk, pk, sk',
        ScanIndexForward: false,
        Limit: query.limit - jobIds.length,
        ExclusiveStartKey: startKey,
      }),
    );
    jobIds.push(...(page.Items ?? []).map((item) => item.jobId as string));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  const jobs = await batchGet<JobItem>(jobIds.map((id) => keys.job(id)));
  const open = jobs.filter((job): job is JobItem => job !== undefined && job.status === 'open' && !job.deletingAt);
  return { items: open.map(toJobSummary), nextCursor: encodeCursor(startKey) };
}
