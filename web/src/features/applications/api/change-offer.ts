import type { Application } from '../../../../../shared/api';
import type { ChangeOfferRequest } from '../../../../../shared/schemas/application';
import type { ApiClient } from '../../../lib/api/client';

/** The worker's waiting offer, as it now stands (issue 45). */
export const changeOffer = (api: ApiClient, jobId: string, request: ChangeOfferRequest) =>
  api.put<Application>(`/jobs/${encodeURIComponent(jobId)}/applications/mine`, request);
