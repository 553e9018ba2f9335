/** The dispute routes of the HTTP API (functions/routes.ts, group `disputes`), typed. */
import type * as z from '../../../../../shared/zod';
import type {
  AdminDispute,
  BulkResolveResult,
  Dispute,
  DisputeCenterState,
  DisputeMessage,
  DisputeThread,
  Page,
  ResolutionTemplate,
} from '../../../../../shared/api';
import type { AdminDisputeView, DisputePriority } from '../../../../../shared/disputes';
import type { fileDisputeSchema } from '../../../../../shared/schemas/dispute';
import type { ApiClient } from '../../../lib/api/client';

const jobDisputePath = (jobId: string) => `/jobs/${encodeURIComponent(jobId)}/dispute`;
const threadPath = (disputeId: string) => `/disputes/${encodeURIComponent(disputeId)}/messages`;
const adminDisputePath = (disputeId: string) => `/admin/disputes/${encodeURIComponent(disputeId)}`;

export const fetchDisputeCenter = (api: ApiClient, jobId: string) => api.get<DisputeCenterState>(jobDisputePath(jobId));

export const fileDispute = (api: ApiClient, jobId: string, request: z.input<typeof fileDisputeSchema>) =>
  api.post<Dispute>(jobDisputePath(jobId), request);

export const fetchMyDisputes = (api: ApiClient) => api.get<{ items: Dispute[] }>('/me/disputes');

export const fetchDisputeThread = (api: ApiClient, disputeId: string) => api.get<DisputeThread>(threadPath(disputeId));

export const postDisputeMessage = (api: ApiClient, disputeId: string, message: string) => api.post<DisputeMessage>(threadPath(disputeId), { message });

export const fetchAdminDisputes = (api: ApiClient, view: AdminDisputeView, cursor: string | null) =>
  api.get<Page<AdminDispute>>('/admin/disputes', { status: view, cursor });

export const setDisputePriority = (api: ApiClient, disputeId: string, priority: DisputePriority) =>
  api.put<Dispute>(`${adminDisputePath(disputeId)}/priority`, { priority });

export const resolveDispute = (api: ApiClient, disputeId: string, resolution: { templateId: string } | { resolution: string }) =>
  api.post<Dispute>(`${adminDisputePath(disputeId)}/resolve`, resolution);

export const bulkResolveDisputes = (api: ApiClient, disputeIds: string[], templateId: string) =>
  api.post<BulkResolveResult>('/admin/disputes/bulk-resolve', { disputeIds, templateId });

export const fetchResolutionTemplates = (api: ApiClient) => api.get<{ items: ResolutionTemplate[] }>('/admin/dispute-templates');
