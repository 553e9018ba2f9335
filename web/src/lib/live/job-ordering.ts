import type { JobSummary } from '../../../../shared/api';

/**
 * Live pushes may arrive out of order (the bus and the socket promise no order), so a push is
 * applied only when it is not older than the state held. Every write of a job stamps its
 * `updatedAt`, so the later write carries the later (or, within one millisecond, the same) stamp.
 */
export function isOlderThanHeld(incoming: Pick<JobSummary, 'updatedAt'>, held: Pick<JobSummary, 'updatedAt'> | undefined): boolean {
  return held !== undefined && incoming.updatedAt < held.updatedAt;
}

/** Replaces the job with the same id by `job` unless the one held is newer; puts a new one first. */
export function upsertNewerJob<T extends Pick<JobSummary, 'id' | 'updatedAt'>>(jobs: T[] | undefined, job: T): T[] | undefined {
  if (!jobs) return jobs;
  const held = jobs.find((other) => other.id === job.id);
  if (!held) return [job, ...jobs];
  return isOlderThanHeld(job, held) ? jobs : jobs.map((other) => (other.id === job.id ? job : other));
}
