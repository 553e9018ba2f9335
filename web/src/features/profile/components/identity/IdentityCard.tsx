import { useEffect, useState } from 'react';
import type { IdentityCheckStart, OwnProfile } from '../../../../../../shared/api';
import { IDENTITY_PRIVACY_TEXT, IDENTITY_STATUS_TEXTS, type IdentityStatus } from '../../../../../../shared/identity';
import { MSG } from '../../../../../../shared/messages';
import { apiErrorText } from '../../../../lib/api/client';
import { useApi } from '../../../../lib/api/useApi';
import { useAuth } from '../../../../lib/auth/useAuth';
import { IdentityBadge } from '../../../../lib/components/IdentityBadge';
import { useConfig } from '../../../../lib/useConfig';
import { useToast } from '../../../../lib/toast/useToast';
import { startIdentityCheck } from '../../api/start-identity-check';
import { SimulatorIdentityDialog } from './SimulatorIdentityDialog';
import { openStripeIdentityModal } from './stripe-identity-modal';

/** How often the card reads the profile again while a result is awaited, and for how long after the modal closed. */
const RESULT_POLL_MS = 2_000;
const RESULT_WAIT_MS = 60_000;

/** Statuses from which a (new) check may be started. */
const MAY_START: ReadonlySet<IdentityStatus | 'none'> = new Set(['none', 'document_failed', 'selfie_failed', 'not_completed', 'canceled', 'revoked']);

/**
 * The profile's #identity card (issue 47): where the check stands, what to do next, and "Verify my
 * identity", which opens Stripe's verification modal (locally the simulator's stand-in). The
 * result comes by webhook: the card reads the profile again until it shows, and while Stripe is
 * still checking.
 */
export function IdentityCard({ profile }: { profile: OwnProfile }) {
  const api = useApi();
  const toast = useToast();
  const { refreshProfile } = useAuth();
  const { publishableKey, simulatorUrl } = useConfig().stripe;
  const [starting, setStarting] = useState(false);
  const [simulated, setSimulated] = useState<IdentityCheckStart | null>(null);
  const [waitingSince, setWaitingSince] = useState<number | null>(null);
  const status: IdentityStatus | 'none' = profile.identity?.status ?? 'none';

  // After the modal closed, until a result shows (the server cleared the last one when this try started) or a minute passed.
  const waiting = waitingSince !== null && (status === 'none' || status === 'processing');
  const polling = status === 'processing' || waiting;
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => {
      if (waitingSince !== null && Date.now() - waitingSince > RESULT_WAIT_MS) setWaitingSince(null);
      void refreshProfile();
    }, RESULT_POLL_MS);
    return () => clearInterval(timer);
  }, [polling, waitingSince, refreshProfile]);

  /** Stripe.js does not say whether a try was submitted: after its modal the card waits for a result either way. */
  const modalClosed = (submitted = true) => {
    setSimulated(null);
    if (submitted) setWaitingSince(Date.now());
    void refreshProfile();
  };

  async function verify() {
    setStarting(true);
    try {
      const session = await startIdentityCheck(api);
      if (simulatorUrl) {
        setSimulated(session);
      } else {
        await openStripeIdentityModal(publishableKey, session.clientSecret);
        modalClosed();
      }
    } catch (error) {
      toast.error(apiErrorText(error, MSG.identity.startFailed));
    } finally {
      setStarting(false);
    }
  }

  if (profile.role === 'admin') return null;
  const failed = status !== 'none' && status !== 'verified' && status !== 'processing';
  return (
    <section id="identity" className="card" aria-labelledby="identity-heading">
      <div className="card__heading-row">
        <h2 id="identity-heading">Identity</h2>
        <IdentityBadge verified={status === 'verified'} />
      </div>
      <p role={failed ? 'alert' : undefined}>{IDENTITY_STATUS_TEXTS[status]}</p>
      {status === 'verified' && profile.identity?.verifiedAt ? <p className="muted">Verified on {new Date(profile.identity.verifiedAt).toLocaleDateString()}.</p> : null}
      {waiting && status !== 'processing' ? (
        <p className="muted" role="status">
          Waiting for Stripe&apos;s answer…
        </p>
      ) : null}
      {MAY_START.has(status) ? (
        <button type="button" className="button button--block" disabled={starting || waiting} aria-busy={starting} onClick={() => void verify()}>
          {starting ? 'Opening…' : status === 'none' ? 'Verify my identity' : 'Try again'}
        </button>
      ) : null}
      <p className="muted">{IDENTITY_PRIVACY_TEXT}</p>
      {simulated && simulatorUrl ? <SimulatorIdentityDialog simulatorUrl={simulatorUrl} session={simulated} onDone={modalClosed} /> : null}
    </section>
  );
}
