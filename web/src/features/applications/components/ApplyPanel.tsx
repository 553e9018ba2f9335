import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Application, JobDetail } from '../../../../../shared/api';
import { IDENTITY_PATH } from '../../../../../shared/app-paths';
import { MAX_APPLICATION_MESSAGE, MAX_PENDING_APPLICATIONS } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';
import { OFFER_LABELS } from '../../../../../shared/offers';
import { FormField } from '../../../lib/components/FormField';
import { PaymentAccountNeeded, isPaymentSetupComplete } from '../../payments';
import { useAuth } from '../../../lib/auth/useAuth';
import type { OwnApplication } from '../hooks/useApplications';
import { ApplicationSpots } from './ApplicationSpots';
import { OfferForm, OwnOffer } from './OfferPanel';

interface ApplyPanelProps {
  job: JobDetail;
  own: OwnApplication;
  /** After a successful application: the counts changed. */
  onApplied(): void;
}

/** A worker's side of applying: their application's status, the full notice, or the form. */
export function ApplyPanel({ job, own, onApplied }: ApplyPanelProps) {
  const { profile } = useAuth();
  const accountReady = profile ? isPaymentSetupComplete(profile.paymentAccount) : false;
  if (own.application === undefined) return null;
  if (own.application) return own.application.amount !== null ? <OwnOffer job={job} own={own} offer={own.application} /> : <AppliedNotice application={own.application} />;
  if (job.status !== 'open') return null;
  return (
    <section className="card" aria-labelledby="apply-heading">
      <h2 id="apply-heading">{job.openToOffers ? OFFER_LABELS.makeOffer : 'Apply for this job'}</h2>
      <ApplicationSpots pending={job.pendingApplications} />
      {job.pendingApplications >= MAX_PENDING_APPLICATIONS ? (
        <p className="notice notice--warning" role="status">
          {MSG.applications.full}
        </p>
      ) : job.verifiedWorkersOnly && profile?.identity?.status !== 'verified' ? (
        // The server refuses too (functions/applications/applications.ts); here the way to verify comes with the reason.
        <div className="notice notice--warning" role="status">
          <p>{MSG.identity.applyRefused}</p>
          <Link to={IDENTITY_PATH} className="button button--small">
            Verify my identity
          </Link>
        </div>
      ) : accountReady && job.openToOffers ? (
        <OfferForm
          job={job}
          submitLabel={OFFER_LABELS.makeOffer}
          busyLabel="Sending..."
          onSubmit={async (request) => {
            const applied = await own.apply(request);
            if (applied) onApplied();
            return applied;
          }}
        />
      ) : accountReady ? (
        <ApplicationForm own={own} onApplied={onApplied} />
      ) : (
        // Applying needs a complete payment account (DECISIONS.md "Accounts"): say so, with the way there.
        <PaymentAccountNeeded message={MSG.payments.accountNeededToApply} />
      )}
    </section>
  );
}

function AppliedNotice({ application }: { application: Application }) {
  return (
    <p className={`notice notice--${application.status === 'rejected' ? 'warning' : 'info'}`} role="status">
      You have already applied for this job. Application status: <strong className="application-status">{application.status}</strong>
    </p>
  );
}

function ApplicationForm({ own, onApplied }: { own: OwnApplication; onApplied(): void }) {
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const applied = await own.apply({ message });
    setBusy(false);
    if (applied) onApplied();
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <FormField label="Message to the poster (optional)">
        {(control) => (
          <textarea {...control} rows={4} maxLength={MAX_APPLICATION_MESSAGE} value={message} onChange={(event) => setMessage(event.target.value)} />
        )}
      </FormField>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Applying...' : 'Apply'}
      </button>
    </form>
  );
}
