/** The HTTP API's routes (functions/routes.ts), typed. Screens and hooks call these, never paths. */
import type { AdminStatus, JobDetail, JobSummary, OwnProfile, Page } from '../../../shared/api';
import type { CreateJobRequest } from '../../../shared/schemas/job';
import type { ApiClient } from './client';

/** How many jobs one page of a grid holds. */
export const JOB_PAGE_SIZE = 12;

/** The public grid (everyone's open jobs) or the signed-in feed (without the caller's own jobs). */
export type JobFeed = 'public' | 'personal';

export const fetchAdminStatus = (api: ApiClient) => api.get<AdminStatus>('/accounts/admin-status');

export const fetchOwnProfile = (api: ApiClient) => api.get<OwnProfile>('/me');

export const fetchJobPage = (api: ApiClient, feed: JobFeed, cursor: string | null) =>
  api.get<Page<JobSummary>>(feed === 'public' ? '/jobs' : '/feed/jobs', { limit: JOB_PAGE_SIZE, cursor });

export const fetchJob = (api: ApiClient, id: string) => api.get<JobDetail>(`/jobs/${encodeURIComponent(id)}`);

export const createJob = (api: ApiClient, request: CreateJobRequest) => api.post<JobSummary>('/jobs', request);
