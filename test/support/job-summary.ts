import type { JobSummary } from '../../shared/api.js';

/** An open paid job's public summary, as the API and the live feed carry it, with `changes`. */
export const jobSummary = (changes: Partial<JobSummary> = {}): JobSummary => ({
  id: 'job-1',
  title: 'Fix the fence',
  description: 'Two loose boards',
  location: 'Austin, TX',
  payment: 5000,
  platformFee: 500,
  postedAmount: 5500,
  category: 'Handyman',
  date: '2026-12-01',
  duration: '2 hours',
  status: 'open',
  moneyState: 'held',
  posterId: 'poster-1',
  pendingApplications: 0,
  requirements: [],
  skills: [],
  images: [],
  verifiedWorkersOnly: false,
  openToOffers: false,
  createdAt: '2026-11-26T07:00:00.000Z',
  updatedAt: '2026-11-26T07:00:00.000Z',
  ...changes,
});
