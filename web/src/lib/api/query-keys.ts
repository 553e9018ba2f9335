/**
 * Every key of the query cache, declared once. A job's own queries (its detail, applicants,
 * the caller's application) share the `['job', id]` prefix, so one invalidation reads them all
 * again. The cache is emptied when the signed-in user changes (useUserScopedCache), so keys of
 * the caller's own data ('own-jobs', 'saved-jobs', 'dashboard') need no user id.
 */
export const queryKeys = {
  adminStatus: ['admin-status'] as const,
  earnings: ['earnings'] as const,
  instantPayouts: ['instant-payouts'] as const,
  dashboard: ['dashboard'] as const,
  ownJobs: ['own-jobs'] as const,
  hiddenCategories: ['hidden-categories'] as const,
  categoryEarnings: ['category-earnings'] as const,
  savedJobs: ['saved-jobs'] as const,
  /** The worker's saved searches (issue 46). */
  savedSearches: ['saved-searches'] as const,
  job: (jobId: string) => ['job', jobId] as const,
  applicants: (jobId: string) => ['job', jobId, 'applicants'] as const,
  ownApplication: (jobId: string) => ['job', jobId, 'own-application'] as const,
  jobPayment: (jobId: string) => ['job', jobId, 'payment'] as const,
  /** A job's reviews as the caller may see them (their own even while it is hidden). */
  jobReviews: (jobId: string) => ['job', jobId, 'reviews'] as const,
  /** A job's public questions and answers (issue 45). */
  jobQuestions: (jobId: string) => ['job', jobId, 'questions'] as const,
  /** A job's price changes (issue 45): its parties' and the admin's. */
  jobPriceChanges: (jobId: string) => ['job', jobId, 'price-changes'] as const,
  /** A user's public profile (with their rating) and the reviews about them. */
  profile: (userId: string) => ['profile', userId] as const,
  reviewsAbout: (userId: string) => ['profile', userId, 'reviews'] as const,
};

/** Replaces the item with the same id in place, or puts a new one first (lists are newest first). */
export function upsertById<T>(items: T[] | undefined, item: T, idOf: (item: T) => string): T[] | undefined {
  if (!items) return items;
  return items.some((other) => idOf(other) === idOf(item))
    ? items.map((other) => (idOf(other) === idOf(item) ? item : other))
    : [item, ...items];
}

export function removeById<T>(items: T[] | undefined, id: string, idOf: (item: T) => string): T[] | undefined {
  return items?.filter((item) => idOf(item) !== id);
}
