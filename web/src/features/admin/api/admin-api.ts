/** The admin console's calls (functions/routes.ts, admin access) and the query hooks over them. */
import { useInfiniteQuery, useQuery, type QueryKey } from '@tanstack/react-query';
import type { AdminActionType, AdminActionView, FlaggedJob, MarketStats } from '../../../../../shared/admin';
import type { JobSummary, Page, PaymentRecord, Review, ReviewView } from '../../../../../shared/api';
import type { JobStatus } from '../../../../../shared/job-states';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';

export const ADMIN_QUERY = {
  payments: ['admin', 'payments'] as const,
  jobs: (status: JobStatus) => ['admin', 'jobs', status] as const,
  flags: ['admin', 'flags'] as const,
  markets: ['admin', 'markets'] as const,
  actions: (type: AdminActionType | null) => ['admin', 'actions', type] as const,
  jobReviews: (jobId: string) => ['admin', 'jobReviews', jobId] as const,
};

export const fetchPayments = (api: ApiClient, cursor: string | null) => api.get<Page<PaymentRecord>>('/admin/payments', { cursor });
export const fetchAdminJobs = (api: ApiClient, status: JobStatus, cursor: string | null) => api.get<Page<JobSummary>>('/admin/jobs', { status, cursor });
export const fetchPendingFlags = (api: ApiClient, cursor: string | null) => api.get<Page<FlaggedJob>>('/admin/flags', { cursor });
export const fetchAdminActions = (api: ApiClient, type: AdminActionType | null, cursor: string | null) =>
  api.get<Page<AdminActionView>>('/admin/actions', { type, cursor });
export const fetchMarkets = (api: ApiClient) => api.get<{ items: MarketStats[] }>('/admin/markets');
export const fetchJobReviews = (api: ApiClient, jobId: string) => api.get<{ items: ReviewView[] }>(`/jobs/${encodeURIComponent(jobId)}/reviews`);

export const refundPayment = (api: ApiClient, paymentId: string, reason: string) =>
  api.post<{ refunded: boolean }>(`/admin/payments/${encodeURIComponent(paymentId)}/refund`, { reason });
export const adminCancelJob = (api: ApiClient, jobId: string, reason: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(jobId)}/cancel`, { reason });
export const adminDeleteJob = (api: ApiClient, jobId: string, reason: string) => api.delete<void>(`/jobs/${encodeURIComponent(jobId)}`, { reason });
export const editReview = (api: ApiClient, jobId: string, reviewerId: string, review: { rating: number; comment: string }) =>
  api.put<Review>(`/jobs/${encodeURIComponent(jobId)}/reviews/${encodeURIComponent(reviewerId)}`, review);
export const reviewFlags = (api: ApiClient, jobId: string, decision: 'approved' | 'removed', notes: string) =>
  api.post<{ decision: string }>(`/admin/flags/${encodeURIComponent(jobId)}/review`, { decision, notes });

/** A table's rows, 50 a page, with 'Load more' following the server's cursor. */
export function useAdminPages<T>(queryKey: QueryKey, fetchPage: (api: ApiClient, cursor: string | null) => Promise<Page<T>>) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(api, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, rows: query.data?.pages.flatMap((page) => page.items) ?? [] };
}

export function useMarkets() {
  const api = useApi();
  return useQuery({ queryKey: ADMIN_QUERY.markets, queryFn: () => fetchMarkets(api) });
}
