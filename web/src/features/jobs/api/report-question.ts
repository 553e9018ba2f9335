import type { FlagType } from '../../../../../shared/admin';
import type { ApiClient } from '../../../lib/api/client';

/** A reader's report of one public question on a job, for the admin (issue 45). */
export const reportQuestion = (api: ApiClient, jobId: string, questionId: string, flagType: FlagType, reason: string) =>
  api.post(`/jobs/${encodeURIComponent(jobId)}/flags`, { flagType, reason, questionId });
