/**
 * The job state machine (spec 1 §4, spec 2 §4). Every handler that changes a job's status
 * asks this module which statuses it may start from and writes that set as a DynamoDB
 * condition, so the rule holds under concurrency too.
 */
/**
 * `awaiting_payment` is ours (DECISIONS.md "Money and fees"): a posted job is a draft, seen by
 * its poster only, until the card payment succeeds; an unpaid draft expires after a day.
 */
export const JOB_STATUSES = ['awaiting_payment', 'open', 'assigned', 'completed', 'paid', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export type JobAction = 'pay' | 'edit' | 'accept' | 'unassign' | 'cancel' | 'adminCancel' | 'complete' | 'declineCompletion' | 'release' | 'delete';

/** action -> statuses it may start from, and the status it leads to (null: the job is removed). */
export const JOB_TRANSITIONS: Record<JobAction, { from: readonly JobStatus[]; to: JobStatus | null }> = {
  pay: { from: ['awaiting_payment'], to: 'open' },
  edit: { from: ['open'], to: 'open' },
  accept: { from: ['open'], to: 'assigned' },
  unassign: { from: ['assigned'], to: 'open' },
  cancel: { from: ['assigned'], to: 'cancelled' },
  /** The admin may cancel any job not yet done (spec 2 §5), e.g. a reported open job. */
  adminCancel: { from: ['open', 'assigned'], to: 'cancelled' },
  complete: { from: ['assigned'], to: 'completed' },
  declineCompletion: { from: ['completed'], to: 'assigned' },
  release: { from: ['completed'], to: 'paid' },
  delete: { from: ['awaiting_payment', 'open', 'completed', 'paid', 'cancelled'], to: null },
};

export function canPerform(action: JobAction, status: JobStatus): boolean {
  return JOB_TRANSITIONS[action].from.includes(status);
}

/** Badge text: 'Open', or the raw status (spec 1 §2 "Job card"). */
export function statusBadgeText(status: JobStatus): string {
  if (status === 'open') return 'Open';
  return status === 'awaiting_payment' ? 'awaiting payment' : status;
}

/** How long an unpaid draft is kept before it expires. */
export const DRAFT_TTL_SECONDS = 24 * 3600;

/**
 * A worker's success rate (spec 2 §9): their completed and paid jobs over all their jobs, as a
 * whole percent; null while they have none.
 */
export function workerSuccessRate(jobs: ReadonlyArray<{ status: JobStatus }>): number | null {
  if (jobs.length === 0) return null;
  const succeeded = jobs.filter((job) => job.status === 'completed' || job.status === 'paid').length;
  return Math.round((succeeded / jobs.length) * 100);
}
