/** Dispute rules of spec 2 §3, §4, §5 and §9, in one place for the server and the web. */
import type { JobStatus } from './job-process.js';
import { MSG } from './messages.js';
import { formatUsdAmount } from './money.js';

export const DISPUTE_TYPES = ['payment', 'quality', 'behavior', 'general'] as const;
export type DisputeType = (typeof DISPUTE_TYPES)[number];

export const DISPUTE_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type DisputePriority = (typeof DISPUTE_PRIORITIES)[number];

export const DISPUTE_STATUSES = ['open', 'investigating', 'resolved', 'closed'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Spec 2 §5: a worker disputes active or completed jobs; a poster assigned, completed or paid jobs with a worker. */
export const WORKER_DISPUTABLE: readonly JobStatus[] = ['assigned', 'completed'];
export const POSTER_DISPUTABLE: readonly JobStatus[] = ['assigned', 'completed', 'paid'];

/** Whether the viewer, as one of the job's two parties, may file a dispute about it now (spec 2 §5). */
export function mayDispute(job: { status: JobStatus; posterId: string; workerId?: string }, viewerId: string | null): boolean {
  if (!viewerId || !job.workerId) return false;
  if (viewerId === job.posterId) return POSTER_DISPUTABLE.includes(job.status);
  return viewerId === job.workerId && WORKER_DISPUTABLE.includes(job.status);
}

export const disputeCenterPath = (jobId: string): string => `/jobs/${jobId}/dispute`;

/** Spec 2 §9: the admin's list sorts by this weight, then newest. */
export const PRIORITY_WEIGHT: Record<DisputePriority, number> = { urgent: 4, high: 3, medium: 2, low: 1 };

export const DEFAULT_DISPUTE_PRIORITY: DisputePriority = 'medium';

/** Spec 2 §4: a thread takes messages while open or investigating; resolved and closed are read-only. */
export const isDisputeOpen = (status: DisputeStatus): boolean => status === 'open' || status === 'investigating';

/** Spec 2 §2: the parties' list reads 'resolved' as 'closed'. */
export const partyStatusLabel = (status: DisputeStatus): string => (status === 'resolved' ? 'closed' : status);

/** The admin's view has two lists (spec 2 §3: "admin view uses open and resolved"). */
export const ADMIN_DISPUTE_VIEWS = ['open', 'resolved'] as const;
export type AdminDisputeView = (typeof ADMIN_DISPUTE_VIEWS)[number];

/** Spec 2 §9: admin tables show 50 rows. */
export const ADMIN_DISPUTES_PAGE = 50;
/** One bulk resolution touches at most this many disputes (two admin pages). */
export const MAX_BULK_RESOLVE = 100;
export const MAX_DISPUTE_DESCRIPTION = 2000;
export const MAX_DISPUTE_MESSAGE = 2000;
export const MAX_RESOLUTION = 2000;

/**
 * What a resolution tells the parties, with the amounts it moved when it decided the job's
 * money (DECISIONS.md "Wave 4"): their notification's text, and the dispute's outcome as the
 * parties and the admin read it later. (`outcome` is api.ts's DisputeMoneyOutcome.)
 */
export function disputeResolutionMessage(jobTitle: string, outcome: { decision: 'release' | 'refund' | 'split'; toWorker: number; refunded: number } | undefined): string {
  if (!outcome) return MSG.disputes.resolvedMessage(jobTitle);
  if (outcome.decision === 'release') return MSG.disputes.resolvedReleased(jobTitle, formatUsdAmount(outcome.toWorker));
  if (outcome.decision === 'refund') return MSG.disputes.resolvedRefunded(jobTitle, formatUsdAmount(outcome.refunded));
  return MSG.disputes.resolvedSplit(jobTitle, formatUsdAmount(outcome.toWorker), formatUsdAmount(outcome.refunded));
}
