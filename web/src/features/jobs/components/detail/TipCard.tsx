import { useState, type FormEvent } from 'react';
import type { JobDetail, TipAnswer } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { dollarsToCents, formatCents } from '../../../../../../shared/money';
import { TIP_RULES, tipAmountProblem, tipPresetCents, tipWindowEndsAt } from '../../../../../../shared/tips';
import { apiErrorText } from '../../../../lib/api/client';
import { useApi } from '../../../../lib/api/useApi';
import { ConfirmDialog } from '../../../../lib/components/ConfirmDialog';
import { FormField } from '../../../../lib/components/FormField';
import { useNow } from '../../../../lib/hooks/useNow';
import { formatCalendarDay } from '../../../../lib/format';
import { useToast } from '../../../../lib/toast/useToast';
import { CardPaymentStep } from '../../../payments';
import { addTip } from '../../api/add-tip';

type Choice = (typeof TIP_RULES.presetPercents)[number] | 'other';

/**
 * A paid job's tip: the poster adds one within 7 days of the release (a preset percent of the
 * payment or an amount), confirmed first, charged to the card of the job's payment; if the bank
 * wants the poster, the card step confirms it and the tip is sent again to finish. Once tipped,
 * both sides see it.
 */
export function TipCard({ job, viewer, workerName, onChanged }: { job: JobDetail; viewer: 'poster' | 'worker'; workerName: string; onChanged(): void }) {
  if (job.tip !== undefined) {
    return (
      <section className="card" aria-labelledby="tip-heading">
        <h2 id="tip-heading">Tip</h2>
        <p>{viewer === 'poster' ? `You tipped ${formatCents(job.tip)} to ${workerName}. Thank you!` : `The poster tipped you ${formatCents(job.tip)}.`}</p>
      </section>
    );
  }
  if (viewer === 'worker') return null;
  return <AddTipWhileOpen job={job} workerName={workerName} onChanged={onChanged} />;
}

/** The tip form until its window closes (checked each minute, so an open page does not offer it after). */
function AddTipWhileOpen({ job, workerName, onChanged }: { job: JobDetail; workerName: string; onChanged(): void }) {
  const closesAt = tipWindowEndsAt(job.releasedAt ?? job.updatedAt);
  const now = useNow(60_000);
  if (now > Date.parse(closesAt)) return null;
  return <AddTip job={job} workerName={workerName} closesAt={closesAt} onChanged={onChanged} />;
}

function AddTip({ job, workerName, closesAt, onChanged }: { job: JobDetail; workerName: string; closesAt: string; onChanged(): void }) {
  const api = useApi();
  const toast = useToast();
  const [choice, setChoice] = useState<Choice>(15);
  const [otherText, setOtherText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [cardStep, setCardStep] = useState<Extract<TipAnswer, { status: 'card_needed' }> | null>(null);

  const amount = choice === 'other' ? dollarsToCents(otherText) : tipPresetCents(job.payment, choice);
  const problem = amount === null ? (otherText.trim() ? MSG.tips.invalidAmount : null) : tipAmountProblem(amount, job.payment);

  /** Sends the tip (again after the card step, to finish it); the outcome is a toast. */
  async function send(cents: number) {
    setBusy(true);
    try {
      const answer = await addTip(api, job.id, cents);
      if (answer.status === 'card_needed') {
        setCardStep(answer);
        toast.error(answer.message);
        return;
      }
      setCardStep(null);
      toast.success(MSG.tips.added(formatCents(cents), workerName));
      onChanged();
    } catch (error) {
      toast.error(apiErrorText(error, MSG.tips.failed));
      onChanged();
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (amount !== null && !problem) setConfirming(true);
  }

  if (cardStep) {
    return (
      <section className="card" aria-labelledby="tip-heading">
        <h2 id="tip-heading">Confirm your tip</h2>
        <p role="alert">{cardStep.message}</p>
        <CardPaymentStep payment={cardStep.payment} onPaid={() => send(cardStep.payment.amount)} />
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby="tip-heading">
      <h2 id="tip-heading">Add a tip</h2>
      <p>
        The whole tip goes to {workerName}, charged to the card you paid for this job with. You can add one until {formatCalendarDay(closesAt.slice(0, 10))}.
      </p>
      <form className="tip-form" onSubmit={submit} noValidate>
        <fieldset className="pill-choices">
          <legend>Tip amount</legend>
          {TIP_RULES.presetPercents.map((percent) => (
            <label key={percent} className="pill-choice">
              <input type="radio" name="tip" checked={choice === percent} onChange={() => setChoice(percent)} />
              {percent}% ({formatCents(tipPresetCents(job.payment, percent))})
            </label>
          ))}
          <label className="pill-choice">
            <input type="radio" name="tip" checked={choice === 'other'} onChange={() => setChoice('other')} />
            Other amount
          </label>
        </fieldset>
        {choice === 'other' ? (
          <FormField label="Tip amount ($)" error={problem} hint={`From ${formatCents(TIP_RULES.minCents)} up to ${formatCents(job.payment)}.`}>
            {(control) => <input {...control} name="tipAmount" inputMode="decimal" value={otherText} onChange={(event) => setOtherText(event.target.value)} />}
          </FormField>
        ) : problem ? (
          // A preset under the $0.50 minimum (a small job's payment).
          <p className="field__error">{problem}</p>
        ) : null}
        <button type="submit" className="button" disabled={busy || amount === null || problem !== null}>
          {amount !== null && !problem ? `Tip ${formatCents(amount)}` : 'Add a tip'}
        </button>
      </form>
      {confirming && amount !== null ? (
        <ConfirmDialog
          title="Add this tip?"
          confirmLabel={`Tip ${formatCents(amount)}`}
          cancelLabel="Not now"
          busy={busy}
          onConfirm={() => void send(amount)}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {formatCents(amount)} goes to {workerName} in full for <strong>{job.title}</strong>, charged to the card you paid for this job with.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
