import { ROLE_HOME } from './roles.js';

/**
 * Paths of the web app that the server names too (a web push opens one of them), declared once
 * for both.
 */
export const MESSAGES_PATH = '/real-time-messages';
export const EARNINGS_PATH = '/worker-earnings';
/** The profile's identity card (issue 47): where a verification is started and its result read. */
export const IDENTITY_PATH = '/profile#identity';

/** The job page's query parameter that opens one of its tabs (the poster's applicants: `applications`). */
export const JOB_TAB_PARAM = 'tab';

/** A job's page with its Applications tab open (the poster's view). */
export const jobApplicantsPath = (jobId: string) => `/jobs/${encodeURIComponent(jobId)}?${JOB_TAB_PARAM}=applications`;

/** The dashboards' query parameter that opens one dispute's thread in the disputes panel. */
export const OPEN_DISPUTE_PARAM = 'dispute';

/** A tab of the admin console, by its `?tab=` value (screens/admin-dashboard). */
export const adminTabPath = (tab: string) => `${ROLE_HOME.admin}?tab=${tab}`;
