import { useId, useState } from 'react';
import type { IdentityCheckStart } from '../../../../../../shared/api';
import { useModalDialog } from '../../../../lib/hooks/useModalDialog';

/** The test outcomes Stripe's test-mode modal offers, as the local simulator takes them (POST /identity/{id}/{outcome}). */
const OUTCOMES = [
  { outcome: 'verified', label: 'Verification success' },
  { outcome: 'document_unverified', label: 'Document unverified' },
  { outcome: 'selfie_mismatch', label: 'Selfie mismatch' },
  { outcome: 'consent_declined', label: 'Decline to be verified' },
] as const;

interface SimulatorIdentityDialogProps {
  simulatorUrl: string;
  session: IdentityCheckStart;
  /** Submitted (its result comes to the profile by webhook) or closed without a try. */
  onDone(submitted: boolean): void;
}

/**
 * Local stack only: stands in for Stripe.js's verification modal, as the card form stands in for
 * Elements. The person picks one of Stripe's test outcomes; the simulator answers it as Stripe
 * would and sends the webhook events.
 */
export function SimulatorIdentityDialog({ simulatorUrl, session, onDone }: SimulatorIdentityDialogProps) {
  const dialog = useModalDialog();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(outcome: string) {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`${simulatorUrl}/identity/${encodeURIComponent(session.sessionId)}/${outcome}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_secret: session.clientSecret }),
      });
      if (!response.ok) throw new Error(`The test verification answered ${response.status}`);
      onDone(true);
    } catch {
      setError('The test verification could not be submitted. Please try again.');
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onDone(false);
      }}
    >
      <h2 id={titleId}>Stripe test mode — identity verification</h2>
      <p>In test mode Stripe checks no real document: choose the result to simulate.</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        {OUTCOMES.map(({ outcome, label }) => (
          <button key={outcome} type="button" className="button" disabled={busy} onClick={() => void submit(outcome)}>
            {label}
          </button>
        ))}
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => onDone(false)}>
          Close
        </button>
      </div>
    </dialog>
  );
}
