/** The cache keys of dispute data; every dispute query starts with 'disputes'. */
export const disputeKeys = {
  all: ['disputes'] as const,
  mine: ['disputes', 'mine'] as const,
  thread: (disputeId: string) => ['disputes', 'thread', disputeId] as const,
  center: (jobId: string) => ['disputes', 'center', jobId] as const,
  admin: ['disputes', 'admin'] as const,
};
