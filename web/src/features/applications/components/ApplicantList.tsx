import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ApplicantView, CardStepAnswer, JobDetail } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { OFFER_LABELS, OFFER_TEXTS, offerPrice } from '../../../../../shared/offers';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { FormField } from '../../../lib/components/FormField';
import type { ApplicationDecision } from '../api/decide-application';
import type { JobApplicants } from '../hooks/useApplications';
import { EmptyState } from '../../../lib/components/EmptyState';
import { Avatar } from '../../../lib/components/Avatar';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';
import { formatSuccessRate } from '../../../lib/format';
import { ApplicationSpots } from './ApplicationSpots';
import { useOfferAmount } from './OfferPanel';
import { RatingSummary } from '../../reviews';
import { CardPaymentStep } from '../../payments';

interface ApplicantListProps {
  job: JobDetail;
  applicants: JobApplicants;
  /** After an accept: the job is assigned now. */
  onAccepted(): void;
}

/** The poster's applicants, newest first, each with accept, reject and message while undecided. */
export function ApplicantList({ job, applicants, onAccepted }: ApplicantListProps) {
  const { query } = applicants;
  if (query.isPending) return <p className="muted">Loading applications...</p>;
  if (query.isError) {
    return (
      <EmptyState title={MSG.applications.loadFailed}>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  return (
    <section aria-label="Applicants">
      {job.status === 'open' ? <ApplicationSpots pending={query.data.pending} /> : null}
      {query.data.items.length === 0 ? (
        <EmptyState title="No applications yet." />
      ) : (
        <ul className="applicants">
          {query.data.items.map((applicant) => (
            <li key={applicant.application.id}>
              <ApplicantCard job={job} applicant={applicant} applicants={applicants} onAccepted={onAccepted} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface ApplicantCardProps extends ApplicantListProps {
  applicant: ApplicantView;
}

function ApplicantCard({ job, applicant: { application, worker, successRate }, applicants, onAccepted }: ApplicantCardProps) {
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [countering, setCountering] = useState(false);
  const [cardStep, setCardStep] = useState<CardStepAnswer | null>(null);
  const undecided = application.status === 'pending' && job.status === 'open';
  const offer = application.amount;

  /** Accepts (again after the card step an offer above the budget may need, to finish it) or rejects. */
  async function decide(decision: ApplicationDecision) {
    setBusy(true);
    const done = await applicants.decide(worker.id, decision, decision === 'accept' ? (offer ?? undefined) : undefined);
    setBusy(false);
    setConfirming(false);
    setCardStep(typeof done === 'object' ? done : null);
    if (done === true && decision === 'accept') onAccepted();
  }

  return (
    <article className="applicant card" aria-label={worker.name}>
      <header className="applicant__header">
        <Avatar name={worker.name} imageUrl={worker.profileImage} />
        <div>
          <h3 className="applicant__name">{worker.name}</h3>
          <IdentityBadge verified={worker.identityVerified} />
          <RatingSummary rating={worker.rating} reviewCount={worker.reviewCount} />
          <p className="applicant__success">Success rate: {formatSuccessRate(successRate)}</p>
        </div>
        <span className={`badge badge--application-${application.status}`}>{application.status}</span>
      </header>
      {worker.bio ? <p className="preserve-lines">{worker.bio}</p> : null}
      {worker.skills.length > 0 ? (
        <ul className="chips" aria-label={`Skills of ${worker.name}`}>
          {worker.skills.map((skill) => (
            <li key={skill} className="chip">
              {skill}
            </li>
          ))}
        </ul>
      ) : null}
      {offer !== null ? <OfferFacts job={job} application={application} /> : null}
      {application.message ? (
        <blockquote className="applicant__message preserve-lines">{application.message}</blockquote>
      ) : (
        <p className="muted">No message.</p>
      )}
      <div className="button-row">
        {undecided && offer !== null ? (
          <>
            <button type="button" className="button button--small" disabled={busy} onClick={() => setConfirming(true)}>
              {OFFER_LABELS.acceptOffer}
              <span className="visually-hidden"> of {worker.name}</span>
            </button>
            {application.counter === null ? (
              <button type="button" className="button button--small button--secondary" disabled={busy} aria-expanded={countering} onClick={() => setCountering(!countering)}>
                {OFFER_LABELS.counterOffer}
                <span className="visually-hidden"> to {worker.name}</span>
              </button>
            ) : null}
            <button type="button" className="button button--small button--danger-outline" disabled={busy} onClick={() => void decide('reject')}>
              Reject<span className="visually-hidden"> {worker.name}</span>
            </button>
          </>
        ) : undecided ? (
          <>
            <button type="button" className="button button--small" disabled={busy} onClick={() => void decide('accept')}>
              Accept<span className="visually-hidden"> {worker.name}</span>
            </button>
            <button type="button" className="button button--small button--danger-outline" disabled={busy} onClick={() => void decide('reject')}>
              Reject<span className="visually-hidden"> {worker.name}</span>
            </button>
          </>
        ) : null}
        {/* As the server decides a start: any applicant while open, then only the assigned worker until paid. */}
        {job.status === 'open' || (job.workerId === worker.id && job.status !== 'paid') ? (
          <Link
            className="button button--small button--secondary"
            to={`/real-time-messages?job=${encodeURIComponent(job.id)}&worker=${encodeURIComponent(worker.id)}`}
          >
            Message<span className="visually-hidden"> {worker.name}</span>
          </Link>
        ) : null}
      </div>
      {countering && undecided && offer !== null ? (
        <CounterOfferForm
          workerName={worker.name}
          onSubmit={async (amount) => {
            const done = await applicants.counter(worker.id, amount);
            if (done) setCountering(false);
          }}
          onCancel={() => setCountering(false)}
        />
      ) : null}
      {cardStep ? (
        <section className="applicant__card-step" aria-label={OFFER_TEXTS.cardStepTitle}>
          <p role="alert">{cardStep.message}</p>
          <CardPaymentStep payment={cardStep.payment} onPaid={() => decide('accept')} />
        </section>
      ) : null}
      {confirming && offer !== null ? (
        <ConfirmDialog title={`${OFFER_LABELS.acceptOffer}?`} confirmLabel={OFFER_LABELS.acceptOffer} busy={busy} onConfirm={() => void decide('accept')} onCancel={() => setConfirming(false)}>
          <p>{acceptText(job, worker.name, offer)}</p>
        </ConfirmDialog>
      ) : null}
    </article>
  );
}

/** What accepting an offer does to the poster's money: the offer, their total with the fee on it, and what comes back of what they paid or is charged beyond it. */
function acceptText(job: JobDetail, workerName: string, offer: number): string {
  const price = offerPrice(offer, job);
  if (price.charge > 0) return OFFER_TEXTS.acceptAboveConfirm(workerName, formatCents(price.payment), formatCents(price.postedAmount), formatCents(price.charge));
  return OFFER_TEXTS.acceptConfirm(workerName, formatCents(price.payment), formatCents(price.postedAmount), price.refund > 0 ? formatCents(price.refund) : null);
}

/** An offer's amount beside the budget, when the worker can do it, and the counter-offer's state. */
function OfferFacts({ job, application }: { job: JobDetail; application: ApplicantView['application'] }) {
  const { amount, availability, counter } = application;
  return (
    <dl className="offer-facts">
      <dt>Offer</dt>
      <dd className="offer-facts__amount">
        {formatCents(amount ?? job.payment)}
        {/* Once assigned, the job's price is the accepted offer's, no longer the budget. */}
        {job.status === 'open' ? <span className="muted"> (budget {formatCents(job.payment)})</span> : null}
      </dd>
      {availability ? (
        <>
          <dt>When</dt>
          <dd>{availability}</dd>
        </>
      ) : null}
      {counter ? (
        <>
          <dt>Your counter-offer</dt>
          <dd>
            {formatCents(counter.amount)}: {counter.status === 'pending' ? 'waiting for the worker' : counter.status}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** The poster's one counter-offer: another amount, within the spec's payment limits (above the budget, its difference is charged when accepted). */
function CounterOfferForm({ workerName, onSubmit, onCancel }: { workerName: string; onSubmit(amount: number): Promise<void>; onCancel(): void }) {
  const { amount, setAmount, error, busy, submit } = useOfferAmount();
  const send = submit(onSubmit);

  return (
    <form className="offer-form" onSubmit={(event) => void send(event)} noValidate aria-label={`Counter-offer to ${workerName}`}>
      <FormField label="Your counter-offer ($)" error={error} hint="You can counter each offer once; the worker accepts or declines it.">
        {(control) => <input {...control} inputMode="decimal" placeholder="0.00" value={amount} onChange={(event) => setAmount(event.target.value)} required />}
      </FormField>
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={busy}>
          {busy ? 'Sending...' : 'Send Counter-offer'}
        </button>
        <button type="button" className="button button--small button--secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
