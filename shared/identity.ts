/**
 * Identity verification (issue 47, docs/decisions/0320): a Stripe Identity VerificationSession
 * (a government ID with a matching selfie) checked by Stripe, which keeps the documents. The
 * product stores only the status below, when it was verified and the session's id.
 */

/**
 * Where a user's verification stands, as the profile stores it:
 * - `processing`: submitted, Stripe is checking it;
 * - `verified`: the badge shows;
 * - `document_failed`, `selfie_failed`, `not_completed`: the last try failed and may be tried again
 *   (the document, the selfie matching it, or the person stopped or could not go on);
 * - `canceled`: the session was cancelled or its data redacted at Stripe: no longer valid;
 * - `revoked`: the admin removed it, with a reason in the audit trail.
 * A user who never started one has none (`null` in the API).
 */
export const IDENTITY_STATUSES = ['processing', 'verified', 'document_failed', 'selfie_failed', 'not_completed', 'canceled', 'revoked'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

/** The admin's Users tab filter. */
export const IDENTITY_FILTERS = ['verified', 'unverified'] as const;
export type IdentityFilter = (typeof IDENTITY_FILTERS)[number];

/** What of a VerificationSession the status is read from (never its outputs: they are not asked for). */
export interface VerificationSessionState {
  /** requires_input, processing, verified or canceled (Stripe's types leave room for more). */
  status: string;
  last_error: { code: string | null } | null;
  redaction: { status: string } | null;
}

/**
 * Our status of a session as Stripe reports it; undefined while it waits for its first try
 * (`requires_input` without an error): nothing to show yet.
 */
export function identityStatusOf(session: VerificationSessionState): Exclude<IdentityStatus, 'revoked'> | undefined {
  if (session.redaction) return 'canceled';
  if (session.status === 'verified' || session.status === 'processing' || session.status === 'canceled') return session.status;
  if (session.status !== 'requires_input') return undefined;
  const code = session.last_error?.code;
  if (!code) return undefined;
  if (code.startsWith('document_')) return 'document_failed';
  if (code.startsWith('selfie_')) return 'selfie_failed';
  return 'not_completed';
}

/** The status in a few words (the admin's user page, the profile card's badge of a status). */
export const IDENTITY_STATUS_LABELS: Record<IdentityStatus, string> = {
  processing: 'Being checked',
  verified: 'Verified',
  document_failed: 'Document not verified',
  selfie_failed: 'Selfie did not match',
  not_completed: 'Not completed',
  canceled: 'No longer valid',
  revoked: 'Removed by an admin',
};

/** What the user's profile card says of each status, and what to do next. */
export const IDENTITY_STATUS_TEXTS: Record<IdentityStatus | 'none', string> = {
  none: 'Verify your identity with a government ID and a selfie. Posters see an "ID verified" badge on your profile, your applications and in chat.',
  processing: 'Stripe is checking your ID and selfie. This usually takes a minute or two; this page updates by itself.',
  verified: 'Your identity is verified. Posters see the "ID verified" badge on your profile, your applications and in chat.',
  document_failed: 'Stripe could not verify your document. Try again with a valid, unexpired government ID, photographed whole and in good light.',
  selfie_failed: "Your selfie did not match your ID's photo. Try again facing the camera, in good light, without a hat or glasses.",
  not_completed: 'The verification was not completed. You can try again whenever you are ready.',
  canceled: 'Your verification is no longer valid. Verify again to show the badge.',
  revoked: 'An admin removed your verification. You can verify again.',
};

/** What is kept of a verification, said where it is asked for (the profile) and in the privacy policy. */
export const IDENTITY_PRIVACY_TEXT =
  'Stripe checks your ID and selfie and keeps them. We store only whether you are verified, when, and Stripe’s reference to the check — never your document, your photo, your date of birth or an ID number.';
