import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { JobDetail, PendingPriceChange, PriceChange, PriceChangeAnswer } from '../../../../../../shared/api';
import { dollarsToCents, formatCents } from '../../../../../../shared/money';
import { MAX_PRICE_CHANGE_REASON, PRICE_CHANGE_LABELS, PRICE_CHANGE_TEXTS, priceChangeAmountProblem, priceChangeQuote } from '../../../../../../shared/price-changes';
import { apiErrorText } from '../../../../lib/api/client';
import { queryKeys } from '../../../../lib/api/query-keys';
import { useApi } from '../../../../lib/api/useApi';
import { ConfirmDialog } from '../../../../lib/components/ConfirmDialog';
import { FormField } from '../../../../lib/components/FormField';
import { useToast } from '../../../../lib/toast/useToast';
import { CardPaymentStep } from '../../../payments';
import { approvePriceChange } from '../../api/approve-price-change';
import { declinePriceChange } from '../../api/decline-price-change';
import { usePriceChanges } from '../../api/fetch-price-changes';
import { requestPriceChange } from '../../api/request-price-change';
import { withdrawPriceChange } from '../../api/withdraw-price-change';

const onDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

type Viewer = 'poster' | 'worker' | 'admin';

/**
 * A job's price after assignment (issue 45, docs/decisions/0323): the assigned worker requests
 * a price change with a reason and may withdraw it while it waits; the poster approves it —
 * after a confirmation naming what they pay in all and what is refunded — or declines it; the
 * parties and the admin see every request and where it ended. Each side sees its own figure:
 * the worker what they would receive, the poster their total.
 */
export default function PriceChangeCard({ job, viewer, workerName, onChanged }: { job: JobDetail; viewer: Viewer; workerName: string; onChanged(): void }) {
  const history = usePriceChanges(job.id);
  const waiting = job.status === 'assigned' ? job.priceChange : undefined;
  const mayRequest = viewer === 'worker' && job.status === 'assigned' && job.moneyState === 'held' && !waiting;
  const items = history.data ?? [];
  if (!mayRequest && !waiting && items.length === 0) return null;

  return (
    <section className="card price-change" aria-labelledby="price-change-heading">
      <h2 id="price-change-heading">{PRICE_CHANGE_TEXTS.cardTitle}</h2>
      {waiting && viewer === 'worker' ? <WaitingForPoster job={job} waiting={waiting} onChanged={onChanged} /> : null}
      {waiting && viewer === 'poster' ? <AnswerRequest job={job} waiting={waiting} workerName={workerName} onChanged={onChanged} /> : null}
      {waiting && viewer === 'admin' ? <p role="status">{PRICE_CHANGE_TEXTS.pendingForPoster(workerName, formatCents(waiting.amount))}</p> : null}
      {mayRequest ? <RequestForm job={job} onChanged={onChanged} /> : null}
      {history.isError ? <p className="muted">{PRICE_CHANGE_TEXTS.historyLoadFailed}</p> : null}
      {items.length > 0 ? <PriceHistory items={items} /> : null}
    </section>
  );
}

/** Runs one call of the card with its toasts, then reads the job and its history again. */
function useCardCall(jobId: string, onChanged: () => void) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  return {
    busy,
    async run(call: () => Promise<unknown>, texts: { done: string; failed: string }): Promise<boolean> {
      setBusy(true);
      try {
        await call();
        toast.success(texts.done);
        return true;
      } catch (failure) {
        toast.error(apiErrorText(failure, texts.failed));
        return false;
      } finally {
        setBusy(false);
        void queryClient.invalidateQueries({ queryKey: queryKeys.jobPriceChanges(jobId) });
        onChanged();
      }
    },
  };
}

function RequestForm({ job, onChanged }: { job: JobDetail; onChanged(): void }) {
  const api = useApi();
  const call = useCardCall(job.id, onChanged);
  const [open, setOpen] = useState(false);
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const amount = dollarsToCents(amountText);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const amountProblem = amount === null ? (amountText.trim() ? PRICE_CHANGE_TEXTS.amountInvalid : PRICE_CHANGE_TEXTS.amountRequired) : priceChangeAmountProblem(amount, job);
    const reasonProblem = reason.trim() === '' ? PRICE_CHANGE_TEXTS.reasonRequired : null;
    setErrors({ ...(amountProblem ? { amount: amountProblem } : {}), ...(reasonProblem ? { reason: reasonProblem } : {}) });
    if (amount === null || amountProblem || reasonProblem) return;
    if (await call.run(() => requestPriceChange(api, job.id, { amount, reason: reason.trim() }), { done: PRICE_CHANGE_TEXTS.requested, failed: PRICE_CHANGE_TEXTS.requestFailed })) setOpen(false);
  }

  if (!open) {
    return (
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        {PRICE_CHANGE_LABELS.request}
      </button>
    );
  }
  return (
    <form className="price-change__form" onSubmit={(event) => void submit(event)} noValidate aria-label={PRICE_CHANGE_LABELS.request}>
      <FormField label={`${PRICE_CHANGE_TEXTS.amountLabel} ($)`} error={errors.amount} hint={PRICE_CHANGE_TEXTS.amountHint(formatCents(job.payment))}>
        {(control) => <input {...control} name="priceChangeAmount" inputMode="decimal" value={amountText} onChange={(event) => setAmountText(event.target.value)} />}
      </FormField>
      <FormField label={PRICE_CHANGE_TEXTS.reasonLabel} error={errors.reason}>
        {(control) => <textarea {...control} name="priceChangeReason" rows={3} maxLength={MAX_PRICE_CHANGE_REASON} value={reason} onChange={(event) => setReason(event.target.value)} />}
      </FormField>
      <div className="button-row">
        <button type="submit" className="button" disabled={call.busy}>
          {call.busy ? 'Sending...' : PRICE_CHANGE_LABELS.send}
        </button>
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)} disabled={call.busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function WaitingForPoster({ job, waiting, onChanged }: { job: JobDetail; waiting: PendingPriceChange; onChanged(): void }) {
  const api = useApi();
  const call = useCardCall(job.id, onChanged);
  return (
    <div className="price-change__waiting">
      <p role="status">{PRICE_CHANGE_TEXTS.pendingForWorker(formatCents(waiting.amount))}</p>
      <p className="muted">“{waiting.reason}”</p>
      <button
        type="button"
        className="button button--secondary"
        disabled={call.busy}
        onClick={() => void call.run(() => withdrawPriceChange(api, job.id), { done: PRICE_CHANGE_TEXTS.withdrawn, failed: PRICE_CHANGE_TEXTS.requestFailed })}
      >
        {PRICE_CHANGE_LABELS.withdraw}
      </button>
    </div>
  );
}

function AnswerRequest({ job, waiting, workerName, onChanged }: { job: JobDetail; waiting: PendingPriceChange; workerName: string; onChanged(): void }) {
  const api = useApi();
  const call = useCardCall(job.id, onChanged);
  const [step, setStep] = useState<'none' | 'approve' | 'decline'>('none');
  const [declineReason, setDeclineReason] = useState('');
  const [cardStep, setCardStep] = useState<Extract<PriceChangeAnswer, { status: 'card_needed' }> | null>(null);
  const quote = priceChangeQuote(waiting.amount, job);

  /** Approves (again, after the card step, to finish it): approved, or the card step the bank asks for. */
  async function approve() {
    let answer: PriceChangeAnswer | undefined;
    const done = await call.run(
      async () => {
        answer = await approvePriceChange(api, job.id, waiting.amount);
        if (answer.status === 'card_needed') throw new Error(answer.message);
      },
      { done: quote.charge > 0 ? PRICE_CHANGE_TEXTS.approvedCharged : PRICE_CHANGE_TEXTS.approved, failed: PRICE_CHANGE_TEXTS.answerFailed },
    );
    setStep('none');
    setCardStep(!done && answer?.status === 'card_needed' ? answer : null);
  }

  if (cardStep) {
    return (
      <div className="price-change__waiting">
        <h3>{PRICE_CHANGE_TEXTS.cardStepTitle}</h3>
        <p role="alert">{cardStep.message}</p>
        <CardPaymentStep payment={cardStep.payment} onPaid={approve} />
      </div>
    );
  }

  return (
    <div className="price-change__waiting">
      <p role="status">{PRICE_CHANGE_TEXTS.pendingForPoster(workerName, formatCents(waiting.amount))}</p>
      <p className="muted">“{waiting.reason}”</p>
      {step === 'decline' ? (
        <form
          className="price-change__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void call.run(() => declinePriceChange(api, job.id, declineReason), { done: PRICE_CHANGE_TEXTS.declined, failed: PRICE_CHANGE_TEXTS.answerFailed }).then((done) => done && setStep('none'));
          }}
        >
          <FormField label="Reason (optional)">
            {(control) => <textarea {...control} rows={2} maxLength={MAX_PRICE_CHANGE_REASON} value={declineReason} onChange={(event) => setDeclineReason(event.target.value)} />}
          </FormField>
          <div className="button-row">
            <button type="submit" className="button button--danger" disabled={call.busy}>
              {PRICE_CHANGE_LABELS.decline}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setStep('none')} disabled={call.busy}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="button-row">
          <button type="button" className="button" onClick={() => setStep('approve')}>
            {PRICE_CHANGE_LABELS.approve}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setStep('decline')}>
            {PRICE_CHANGE_LABELS.decline}
          </button>
        </div>
      )}
      {step === 'approve' ? (
        <ConfirmDialog
          title={PRICE_CHANGE_LABELS.approve}
          confirmLabel={PRICE_CHANGE_LABELS.approve}
          busy={call.busy}
          onCancel={() => setStep('none')}
          onConfirm={() => void approve()}
        >
          <p>
            {quote.charge > 0
              ? PRICE_CHANGE_TEXTS.approveRaiseConfirm(formatCents(quote.payment), formatCents(quote.postedAmount), formatCents(quote.charge))
              : PRICE_CHANGE_TEXTS.approveConfirm(formatCents(quote.payment), formatCents(quote.postedAmount), formatCents(quote.refund))}
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function PriceHistory({ items }: { items: PriceChange[] }) {
  return (
    <div className="price-change__history">
      <h3>{PRICE_CHANGE_TEXTS.historyTitle}</h3>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <p>
              <strong>
                {formatCents(item.from)} → {formatCents(item.amount)}
              </strong>{' '}
              · <span className="price-change__status">{PRICE_CHANGE_TEXTS.statusLabels[item.status]}</span> <span className="muted">· {onDay(item.requestedAt)}</span>
            </p>
            <p className="muted">“{item.reason}”</p>
            {item.declineReason ? <p className="muted">Declined: “{item.declineReason}”</p> : null}
            {item.refunded ? <p className="muted">Refunded to the poster: {formatCents(item.refunded)}</p> : null}
            {item.charged ? <p className="muted">Charged to the poster: {formatCents(item.charged)}</p> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
