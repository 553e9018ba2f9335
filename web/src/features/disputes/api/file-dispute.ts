import type { Dispute } from '../../../../../shared/api';
import type { fileDisputeSchema } from '../../../../../shared/schemas/dispute';
import type * as z from '../../../../../shared/zod';
import type { ApiClient } from '../../../lib/api/client';

export const fileDispute = (api: ApiClient, jobId: string, request: z.input<typeof fileDisputeSchema>) =>
  api.post<Dispute>(`/jobs/${encodeURIComponent(jobId)}/dispute`, request);
