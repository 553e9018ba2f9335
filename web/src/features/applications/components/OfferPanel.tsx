import { useState, type FormEvent } from 'react';
import type { Application, JobDetail } from '../../../../../shared/api';
import { MAX_APPLICATION_MESSAGE } from '../../../../../shared/limits';
import { dollarsToCents, formatCents } from '../../../../../shared/money';
import { MAX_OFFER_AVAILABILITY, OFFER_LABELS, OFFER_TEXTS, offerAmountProblem } from '../../../../../shared/offers';
import type { ChangeOfferRequest } from '../../../../../shared/schemas/application';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { FormField } from '../../../lib/components/FormField';
import type { OwnApplication } from '../hooks/useApplications';

interface OfferFormProps {
  job: Pick<JobDetail, 'payment'>;
  /** The offer being changed, or none for a new one. */
  initial?: Application;
  submitLabel: string;
  busyLabel: string;
  /** Sends the offer; resolves whether it went through. */
  onSubmit(request: ChangeOfferRequest): Promise<boolean>;
  onCancel?(): void;
}

/**
 * An amount field of an offer or a counter-offer: its text, its error (the server's rules, checked
 * first here) and the sending state; `submit(send)` sends the amount in cents when it passes.
 */
export function useOfferAmount(initial: number | null = null) {
  const [amount, setAmount] = useState(initial !== null ? (initial / 100).toFixed(2) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (send: (cents: number) => Promise<unknown>) => async (event: FormEvent) => {
    event.preventDefault();
    const cents = dollarsToCents(amount);
    const problem = cents === null ? OFFER_TEXTS.amountRequired : offerAmountProblem(cents);
    setError(problem);
    if (problem || cents === null) return;
    setBusy(true);
    await send(cents);
    setBusy(false);
  };
  return { amount, setAmount, error, busy, submit };
}

/** An offer's fields (issue 45): the amount (checked as the server checks it), when the worker can do it, and a message. */
export function OfferForm({ job, initial, submitLabel, busyLabel, onSubmit, onCancel }: OfferFormProps) {
  const { amount, setAmount, error, busy, submit } = useOfferAmount(initial?.amount ?? null);
  const [availability, setAvailability] = useState(initial?.availability ?? '');
  const [message, setMessage] = useState(initial?.message ?? '');
  const send = submit((cents) => onSubmit({ amount: cents, availability: availability.trim() || null, message: message.trim() || null }));

  return (
    <form className="offer-form" onSubmit={(event) => void send(event)} noValidate>
      <FormField label="Your offer ($)" error={error} hint={`What you would receive. The budget is ${formatCents(job.payment)}.`}>
        {(control) => <input {...control} inputMode="decimal" placeholder="0.00" value={amount} onChange={(event) => setAmount(event.target.value)} required />}
      </FormField>
      <FormField label="When can you do it? (optional)">
        {(control) => <input {...control} maxLength={MAX_OFFER_AVAILABILITY} placeholder="e.g. Saturday morning" value={availability} onChange={(event) => setAvailability(event.target.value)} />}
      </FormField>
      <FormField label="Message to the poster (optional)">
        {(control) => <textarea {...control} rows={4} maxLength={MAX_APPLICATION_MESSAGE} value={message} onChange={(event) => setMessage(event.target.value)} />}
      </FormField>
      <div className="button-row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * The worker's own offer on the job's page: its amount and state, the poster's counter-offer
 * with its answers, and — while it waits on an open job — Change Offer and Withdraw Offer.
 */
export function OwnOffer({ job, own, offer }: { job: JobDetail; own: OwnApplication; offer: Application }) {
  const [changing, setChanging] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const [busy, setBusy] = useState(false);
  const waiting = offer.status === 'pending' && job.status === 'open';
  const counter = offer.counter;

  async function run(action: () => Promise<boolean>) {
    setBusy(true);
    await action();
    setBusy(false);
  }

  return (
    <section className="card own-offer" aria-labelledby="own-offer-heading">
      <h2 id="own-offer-heading">Your offer</h2>
      <dl className="own-offer__facts">
        <dt>Amount</dt>
        <dd className="own-offer__amount">{formatCents(offer.amount ?? job.payment)}</dd>
        <dt>Status</dt>
        <dd>
          <strong className="application-status">{offer.status}</strong>
        </dd>
        {offer.availability ? (
          <>
            <dt>When</dt>
            <dd>{offer.availability}</dd>
          </>
        ) : null}
      </dl>
      {offer.message ? <blockquote className="preserve-lines">{offer.message}</blockquote> : null}

      {counter?.status === 'pending' && waiting ? (
        <div className="notice notice--info" role="status">
          <p>The poster proposes {formatCents(counter.amount)} instead.</p>
          <div className="button-row">
            <button type="button" className="button button--small" disabled={busy} onClick={() => void run(() => own.answerCounter('accept'))}>
              {OFFER_LABELS.acceptCounter}
            </button>
            <button type="button" className="button button--small button--secondary" disabled={busy} onClick={() => void run(() => own.answerCounter('decline'))}>
              {OFFER_LABELS.declineCounter}
            </button>
          </div>
        </div>
      ) : counter ? (
        <p className="muted">
          The poster's counter-offer of {formatCents(counter.amount)}: {counter.status}.
        </p>
      ) : null}

      {waiting && changing ? (
        <OfferForm
          job={job}
          initial={offer}
          submitLabel="Save Offer"
          busyLabel="Saving..."
          onSubmit={async (request) => {
            const done = await own.changeOffer(request);
            if (done) setChanging(false);
            return done;
          }}
          onCancel={() => setChanging(false)}
        />
      ) : waiting ? (
        <div className="button-row">
          {counter?.status !== 'pending' ? (
            <button type="button" className="button button--small button--secondary" disabled={busy} onClick={() => setChanging(true)}>
              {OFFER_LABELS.changeOffer}
            </button>
          ) : null}
          <button type="button" className="button button--small button--danger-outline" disabled={busy} onClick={() => setWithdrawing(true)}>
            {OFFER_LABELS.withdrawOffer}
          </button>
        </div>
      ) : null}

      {withdrawing ? (
        <ConfirmDialog
          title="Withdraw your offer?"
          confirmLabel={OFFER_LABELS.withdrawOffer}
          cancelLabel="Keep Offer"
          busy={busy}
          onConfirm={() =>
            void run(async () => {
              const done = await own.withdrawOffer();
              setWithdrawing(false);
              return done;
            })
          }
          onCancel={() => setWithdrawing(false)}
        >
          <p>The poster is told, and you may make a new offer while the job is open.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
