import type { AccountStatus, AdminActionType } from '../../../../../shared/admin';
import type { IdentityFilter } from '../../../../../shared/identity';
import type { Role } from '../../../../../shared/roles';
import type { JobStatus } from '../../../../../shared/job-process';

export const ADMIN_QUERY = {
  payments: ['admin', 'payments'] as const,
  /** The Transactions tab shown for one job (`?job=`): that job's payment; under `payments`, so a change reloads it too. */
  jobPayments: (jobId: string) => ['admin', 'payments', 'job', jobId] as const,
  moneyOverview: (kind: string, period: string) => ['admin', 'payments', 'overview', kind, period] as const,
  /** The money chart's last 30 days or 12 months; under `payments`, so a payment's change reloads it too. */
  moneySeries: (kind: string) => ['admin', 'payments', 'series', kind] as const,
  moneyDecisions: ['admin', 'payments', 'decisions'] as const,
  reversalPreview: (paymentId: string) => ['admin', 'payments', 'reversal', paymentId] as const,
  jobs: (status: JobStatus) => ['admin', 'jobs', status] as const,
  flags: ['admin', 'flags'] as const,
  markets: ['admin', 'markets'] as const,
  categories: ['admin', 'categories'] as const,
  actions: (type: AdminActionType | null) => ['admin', 'actions', type] as const,
  jobReviews: (jobId: string) => ['admin', 'jobReviews', jobId] as const,
  users: (filter: UsersFilter) => ['admin', 'users', filter.q, filter.role, filter.status, filter.verification] as const,
  user: (userId: string) => ['admin', 'user', userId] as const,
};

/** The Users tab's search: a name or email prefix ('' for everyone), a role, an account status, ID verified or not (null: any). */
export interface UsersFilter {
  q: string;
  role: Role | null;
  status: AccountStatus | null;
  verification: IdentityFilter | null;
}
