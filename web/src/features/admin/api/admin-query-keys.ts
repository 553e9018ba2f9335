import type { AdminActionType } from '../../../../../shared/admin';
import type { JobStatus } from '../../../../../shared/job-states';

export const ADMIN_QUERY = {
  payments: ['admin', 'payments'] as const,
  moneyOverview: (kind: string, period: string) => ['admin', 'payments', 'overview', kind, period] as const,
  jobs: (status: JobStatus) => ['admin', 'jobs', status] as const,
  flags: ['admin', 'flags'] as const,
  markets: ['admin', 'markets'] as const,
  categories: ['admin', 'categories'] as const,
  actions: (type: AdminActionType | null) => ['admin', 'actions', type] as const,
  jobReviews: (jobId: string) => ['admin', 'jobReviews', jobId] as const,
};
