import { describe, expect, it } from 'vitest';
import type { JobSummary, LiveMessage } from '../../shared/api.js';
import { jobSummary } from '../support/job-summary.js';
import { jobListReducer, NO_LIST, type JobList } from '../../web/src/features/jobs/hooks/useJobs.js';
import { upsertNewerJob } from '../../web/src/lib/live/job-ordering.js';

const filter = { q: '', category: null, near: null, radius: null };
/** Pushes carry a catch-up cursor; the lists order by the job's `updatedAt`, not by it. */
const CURSOR = '2026-11-26T07:00:00.000Z#job';
const push = (list: JobList, message: LiveMessage): JobList => jobListReducer(list, { type: 'live', key: 'grid', message, viewerId: 'worker-1', filter });
const loaded = (jobs: JobSummary[]): JobList =>
  jobListReducer(NO_LIST, { type: 'loaded', key: 'grid', page: { items: jobs, nextCursor: null }, viewerId: 'worker-1' });

describe('live job pushes arriving out of order', () => {
  const opened = jobSummary({});
  const taken = jobSummary({ status: 'assigned', workerId: 'worker-2', updatedAt: '2026-11-26T07:05:00.000Z' });

  it('the grid keeps a job it dropped as taken when the older "open" push arrives late', () => {
    const grid = push(push(loaded([opened]), { type: 'job.updated', job: taken, cursor: CURSOR }), { type: 'job.updated', job: opened, cursor: CURSOR });
    expect(grid.jobs).toEqual([]);
  });

  it('the grid does not bring back a removed job on a late update', () => {
    const grid = push(push(loaded([]), { type: 'job.removed', jobId: opened.id, cursor: CURSOR }), { type: 'job.posted', job: opened, cursor: CURSOR });
    expect(grid.jobs).toEqual([]);
  });

  it('the grid still applies pushes that arrive in order', () => {
    const retitled = jobSummary({ title: 'Fix the gate', updatedAt: '2026-11-26T07:01:00.000Z' });
    expect(push(loaded([opened]), { type: 'job.updated', job: retitled, cursor: CURSOR }).jobs.map((card) => card.title)).toEqual(['Fix the gate']);
  });

  it('a cached list of own jobs keeps the newer state and takes a newer one', () => {
    expect(upsertNewerJob([taken], opened)).toEqual([taken]);
    expect(upsertNewerJob([opened], taken)).toEqual([taken]);
    expect(upsertNewerJob([], opened)).toEqual([opened]);
  });
});

describe('live job pushes in a grid the server ranked (issue 46)', () => {
  const near = { q: 'gate', category: null, near: 'me' as const, radius: 10 as const };
  const rankedPush = (list: JobList, message: LiveMessage): JobList => jobListReducer(list, { type: 'live', key: 'grid', message, viewerId: 'worker-1', filter: near });
  const found = { ...jobSummary({}), distanceMiles: 3.2, matchedWords: ['gate'], area: { latitude: 30.27, longitude: -97.74 } };

  it('updates a card in place, keeping the distance, the marked words and the area the server gave it', () => {
    const retitled = jobSummary({ title: 'Fix the garden gate', updatedAt: '2026-11-26T07:01:00.000Z' });
    const [card] = rankedPush(loaded([found]), { type: 'job.updated', job: retitled, cursor: CURSOR }).jobs;
    expect(card).toMatchObject({ title: 'Fix the garden gate', distanceMiles: 3.2, matchedWords: ['gate'], area: found.area });
  });

  it('leaves a new job for the server to place (the browser can neither rank it nor measure it)', () => {
    const other = jobSummary({ id: 'job-new', title: 'Paint a gate' });
    expect(rankedPush(loaded([found]), { type: 'job.posted', job: other, cursor: CURSOR }).jobs.map((card) => card.id)).toEqual([found.id]);
  });

  it('still drops a card whose job was taken', () => {
    const taken = jobSummary({ status: 'assigned', workerId: 'worker-2', updatedAt: '2026-11-26T07:05:00.000Z' });
    expect(rankedPush(loaded([found]), { type: 'job.updated', job: taken, cursor: CURSOR }).jobs).toEqual([]);
  });
});
