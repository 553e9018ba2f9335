/** The HTTP API's routes (functions/routes.ts), typed. Screens and hooks call these, never paths. */
import type {
  AdminStatus,
  AppNotification,
  NotificationPreferences,
  UnreadCount,
  Application,
  ApplicationsOfJob,
  Dashboard,
  Earnings,
  JobCardSummary,
  JobDetail,
  JobPaymentStart,
  JobSummary,
  OwnProfile,
  Page,
  PublicProfile,
  Review,
  ReviewView,
  SavedJob,
} from '../../../../shared/api';
import type { JobCategory } from '../../../../shared/categories';
import type { PaymentAccount } from '../../../../shared/payments';
import type * as z from '../../../../shared/zod';
import type { CreateJobRequest, imageUploadRequestSchema } from '../../../../shared/schemas/job';
import type { profileUpdateSchema } from '../../../../shared/schemas/profile';
import type { reviewSchema } from '../../../../shared/schemas/review';
import type { ApiClient } from './client';

/** How many jobs one page of a grid holds. */
export const JOB_PAGE_SIZE = 12;

/** The public grid (everyone's open jobs) or the signed-in feed (without the caller's own jobs). */
export type JobFeed = 'public' | 'personal';

export const fetchAdminStatus = (api: ApiClient) => api.get<AdminStatus>('/accounts/admin-status');

export const fetchOwnProfile = (api: ApiClient) => api.get<OwnProfile>('/me');

/** What a grid is narrowed to: search words (`q`) and one category; empty means every open job. */
export interface JobFilter {
  q: string;
  category: JobCategory | null;
}

export const fetchJobPage = (api: ApiClient, feed: JobFeed, filter: JobFilter, cursor: string | null) =>
  api.get<Page<JobCardSummary>>(feed === 'public' ? '/jobs' : '/feed/jobs', { limit: JOB_PAGE_SIZE, q: filter.q, category: filter.category, cursor });

export const fetchJob = (api: ApiClient, id: string) => api.get<JobDetail>(`/jobs/${encodeURIComponent(id)}`);

/** Pay to post: the job is saved as a draft (only its poster sees it) until its payment succeeds. */
export const createJob = (api: ApiClient, request: CreateJobRequest) => api.post<JobPaymentStart>('/jobs', request);

/** After the card step: opens the paid draft (409 while the payment has not succeeded). */
export const confirmJobPayment = (api: ApiClient, paymentIntentId: string) => api.post<JobSummary>('/payments/confirm', { paymentIntentId });

/** The caller's payment account: created if needed, and a Stripe onboarding link back to this origin. */
export const startPaymentAccountSetup = (api: ApiClient) => api.post<{ accountLinkUrl: string }>('/payments/account', {});

/** Re-reads the caller's payment account from Stripe and saves it on the profile. */
export const refreshPaymentAccount = (api: ApiClient) => api.post<PaymentAccount>('/payments/account/status', {});

/** 'My Earnings': the worker's paid jobs, their total and the payment account. */
export const fetchEarnings = (api: ApiClient) => api.get<Earnings>('/me/earnings');

export const updateJob = (api: ApiClient, id: string, request: CreateJobRequest) =>
  api.put<JobSummary>(`/jobs/${encodeURIComponent(id)}`, request);

export const cancelJob = (api: ApiClient, id: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(id)}/cancel`, {});

export const unassignJob = (api: ApiClient, id: string) => api.post<JobSummary>(`/jobs/${encodeURIComponent(id)}/unassign`, {});

export const deleteJob = (api: ApiClient, id: string) => api.delete<void>(`/jobs/${encodeURIComponent(id)}`);

/** The poster's own jobs, every status. */
export const fetchOwnJobs = (api: ApiClient) => api.get<{ items: JobSummary[] }>('/me/jobs');

/** The worker's saved jobs, newest first. */
export const fetchSavedJobs = (api: ApiClient) => api.get<{ items: SavedJob[] }>('/me/saved-jobs');

export const saveJob = (api: ApiClient, jobId: string) => api.put<void>(`/me/saved-jobs/${encodeURIComponent(jobId)}`);

export const unsaveJob = (api: ApiClient, jobId: string) => api.delete<void>(`/me/saved-jobs/${encodeURIComponent(jobId)}`);

/** A presigned POST for one image: the form fields to send before the file, and the key to attach. */
export interface ImageUploadTicket {
  url: string;
  fields: Record<string, string>;
  key: string;
}

export const requestImageUpload = (api: ApiClient, request: z.input<typeof imageUploadRequestSchema>) =>
  api.post<ImageUploadTicket>('/uploads/images', request);

/** The body of PATCH /me as the browser sends it (before the server sanitises it). */
export type ProfileUpdateRequest = z.input<typeof profileUpdateSchema>;

/** PATCH /me with the fields that changed; answers the whole updated profile. */
export const updateOwnProfile = (api: ApiClient, changes: ProfileUpdateRequest) => api.patch<OwnProfile>('/me', changes);

const jobPath = (id: string) => `/jobs/${encodeURIComponent(id)}`;

/** A worker applies to an open job, with an optional message to the poster. */
export const applyToJob = (api: ApiClient, jobId: string, message: string) => api.post<Application>(`${jobPath(jobId)}/applications`, { message });

/** The poster's Applications tab: applicants newest first, with the counts. */
export const fetchApplicationsOfJob = (api: ApiClient, jobId: string) => api.get<ApplicationsOfJob>(`${jobPath(jobId)}/applications`);

/** The caller's own application to the job; 404 when there is none. */
export const fetchOwnApplication = (api: ApiClient, jobId: string) => api.get<Application>(`${jobPath(jobId)}/applications/mine`);

export type ApplicationDecision = 'accept' | 'reject';

/** Accept answers the assigned job; reject the rejected application. */
export const decideApplication = (api: ApiClient, jobId: string, workerId: string, decision: ApplicationDecision) =>
  api.post<JobSummary | Application>(`${jobPath(jobId)}/applications/${encodeURIComponent(workerId)}/${decision}`, {});

/** The assigned worker marks the job completed. */
export const completeJob = (api: ApiClient, jobId: string) => api.post<JobSummary>(`${jobPath(jobId)}/complete`, {});

/** The poster sends a completed job back to assigned, with feedback for the worker. */
export const declineCompletion = (api: ApiClient, jobId: string, reason: string) =>
  api.post<JobSummary>(`${jobPath(jobId)}/decline-completion`, { reason });

/** The poster releases a completed job's payment: answers the paid job. */
export const releasePayment = (api: ApiClient, jobId: string) => api.post<JobSummary>(`${jobPath(jobId)}/release-payment`, {});

/** A party of a paid job reviews the other party. */
export const submitReview = (api: ApiClient, jobId: string, request: z.input<typeof reviewSchema>) =>
  api.post<Review>(`${jobPath(jobId)}/reviews`, request);

/** Reviews about a user, newest first (one page). */
export const fetchReviewsAbout = (api: ApiClient, userId: string) => api.get<Page<ReviewView>>(`/profiles/${encodeURIComponent(userId)}/reviews`);

export const fetchPublicProfile = (api: ApiClient, userId: string) => api.get<PublicProfile>(`/profiles/${encodeURIComponent(userId)}`);

/** The 50 newest notifications in the spec's order (urgent types first). */
export const fetchNotifications = (api: ApiClient) => api.get<{ items: AppNotification[] }>('/me/notifications');

export const fetchUnreadNotificationCount = (api: ApiClient) => api.get<UnreadCount>('/me/notifications/unread-count');

export const markNotificationRead = (api: ApiClient, id: string) => api.post<AppNotification>(`/me/notifications/${encodeURIComponent(id)}/read`, {});

export const markAllNotificationsRead = (api: ApiClient) => api.post<{ updated: number }>('/me/notifications/read-all', {});

/** The browser's coordinates or a zip code, with the browser's time zone (alerts count days in it). */
export const saveLocation = (
  api: ApiClient,
  location: ({ latitude: number; longitude: number } | { zip: string }) & { timeZone: string },
) => api.put<OwnProfile>('/me/location', location);

export const saveNotificationPreferences = (api: ApiClient, preferences: NotificationPreferences) =>
  api.put<OwnProfile>('/me/notification-preferences', preferences);

/** The caller's dashboard in one call: their jobs (with the parties' fields), earnings, rating and reviews. */
export const fetchDashboard = (api: ApiClient) => api.get<Dashboard>('/me/dashboard');
