import { useState, type FormEvent, type ReactNode } from 'react';
import { formatCents } from '../../../../../shared/money';
import { MSG } from '../../../../../shared/messages';
import { FormError } from '../../../lib/components/FormError';

/** How one card confirmation ended: paid, or the text to show (spec 1 §8 "Card errors"). */
export type CardConfirmation = { ok: true } | { ok: false; error: string };

interface CardFormShellProps {
  /** Cents charged: the 'Pay {total}' button says it. */
  amount: number;
  /** Confirms the PaymentIntent with the card the fields hold. */
  confirm(): Promise<CardConfirmation>;
  /** Runs once the card was charged. */
  onPaid(): Promise<void>;
  /** The card fields. */
  children: ReactNode;
  /** What the card's bank asks while the payment runs (3-D Secure), outside the disabled fields. */
  challenge?: ReactNode;
}

type Phase = 'ready' | 'paying' | 'paid';

/**
 * The card form around either kind of card fields: one submit at a time, the failure shown
 * above the fields (they stay editable, so another card can be tried), and nothing more to do
 * once the card was charged.
 */
export function CardFormShell({ amount, confirm, onPaid, children, challenge }: CardFormShellProps) {
  const [phase, setPhase] = useState<Phase>('ready');
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase !== 'ready') return;
    setPhase('paying');
    setFailure(null);
    let outcome: CardConfirmation;
    try {
      outcome = await confirm();
    } catch {
      outcome = { ok: false, error: MSG.payments.network };
    }
    if (!outcome.ok) {
      setFailure(outcome.error);
      setPhase('ready');
      return;
    }
    setPhase('paid');
    await onPaid();
  }

  return (
    <form className="card-form" onSubmit={submit} noValidate>
      {failure ? <FormError>{failure}</FormError> : null}
      <fieldset className="card-form__fields" disabled={phase !== 'ready'}>
        <legend className="visually-hidden">Card details</legend>
        {children}
      </fieldset>
      {challenge}
      <button type="submit" className="button" disabled={phase !== 'ready'}>
        {phase === 'ready' ? `Pay ${formatCents(amount)}` : 'Processing payment...'}
      </button>
    </form>
  );
}
