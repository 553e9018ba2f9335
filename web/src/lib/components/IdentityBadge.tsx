import { MSG } from '../../../../shared/messages';

/**
 * "ID verified" (issue 47): Stripe checked the user's government ID against a live selfie. Shown
 * beside their name wherever a poster weighs them: the public profile, each application, chat
 * headers, and the admin's user page. Nothing when they are not verified.
 */
export function IdentityBadge({ verified }: { verified: boolean }) {
  if (!verified) return null;
  return (
    <span className="badge badge--identity" title="Stripe checked this person's government ID against a live selfie">
      <span aria-hidden="true">✓ </span>
      {MSG.identity.badge}
    </span>
  );
}
