/** Business limits of spec 1 §9 and spec 2 §9, in one place. */
export const RATE_LIMITS = {
  /** Sign-in attempts per email; a successful sign-in clears the count. */
  signIn: { name: 'sign-in', limit: 5, windowSeconds: 15 * 60 },
  signUp: { name: 'sign-up', limit: 5, windowSeconds: 15 * 60 },
  paymentCreation: { name: 'payment', limit: 3, windowSeconds: 60 },
  messages: { name: 'message', limit: 10, windowSeconds: 60 },
  profileUpdate: { name: 'profile', limit: 3, windowSeconds: 5 * 60 },
  /**
   * Each client's budget (issue 24): a signed-in user's writes over HTTP (POST, PUT, PATCH,
   * DELETE), and a user's or, for visitors, an IP's socket connects; one more in the minute is
   * answered 429 with Retry-After (functions/lib/client-budget.ts). Reads are bounded per route
   * by the stage throttle. 120 a minute is far beyond a person's use: it stops scripts, not
   * people. The deploy passes the limit as the `clientBudgetPerMinute` setting; tests lower it.
   */
  clientWrites: { name: 'client-writes', limit: 120, windowSeconds: 60 },
  clientConnects: { name: 'client-connects', limit: 120, windowSeconds: 60 },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Each profile-update violation adds this much wait, up to the cap. */
export const PROFILE_PENALTY = { secondsPerViolation: 5, maxSeconds: 60 } as const;

export const MAX_PENDING_APPLICATIONS = 4;
export const MAX_APPLICATION_MESSAGE = 1000;
export const REVIEW_RATING = { min: 1, max: 5 } as const;
export const MAX_REVIEW_COMMENT = 500;
export const MAX_JOB_IMAGES = 5;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** How uploaded images are served (S3 object metadata and the images CDN): opened directly, downloaded, never rendered as a page. */
export const IMAGE_DISPOSITION = 'attachment';
export const MAX_SKILLS = 20;

/** Spec 1 §8: a chat message, trimmed. */
export const MAX_CHAT_MESSAGE = 2000;
