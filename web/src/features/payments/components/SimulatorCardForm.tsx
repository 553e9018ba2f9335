import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { useConfig } from '../../../lib/useConfig';
import { FormField } from '../../../lib/components/FormField';
import { CardFormShell, type CardConfirmation } from './CardFormShell';
import type { CardFormProps } from './card-form';
import { cardErrorText, type CardError } from './card-errors';

/** "04/29" or "4 / 2029" -> month "04", year "2029"; null when it is not an expiry date. */
function parseExpiry(text: string): { month: string; year: string } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [, month = '', year = ''] = match;
  return { month: month.padStart(2, '0'), year: year.length === 2 ? `20${year}` : year };
}

function isCardErrorBody(body: unknown): body is { error: CardError } {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'object';
}

/** What the form reads of a PaymentIntent (as Stripe.js sees it with the publishable key). */
interface SimulatedIntent {
  status?: string;
  next_action?: { type: string; use_stripe_sdk?: { stripe_js?: string } } | null;
  last_payment_error?: { message?: string } | null;
}

/** The bank's 3-D Secure challenge the form shows, and how the cardholder answers it. */
interface Challenge {
  answer(completed: boolean): void;
}

/**
 * Local stack only: a plain card form that confirms the PaymentIntent against the Stripe test-mode
 * simulator, as Stripe.js would (publishable key and client secret, card details form-encoded).
 */
export function SimulatorCardForm({ simulatorUrl, payment, onPaid }: CardFormProps & { simulatorUrl: string }) {
  const { publishableKey } = useConfig().stripe;
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [challenge, setChallenge] = useState<Challenge | null>(null);

  /**
   * A card whose bank asks for 3-D Secure (4000 0027 6000 3184): like Stripe.js's test-mode
   * frame, the form asks the cardholder to complete or fail it, answers the simulator's
   * challenge page, then reads the intent again.
   */
  async function authenticate(challengeUrl: string): Promise<CardConfirmation> {
    const completed = await new Promise<boolean>((answer) => setChallenge({ answer }));
    setChallenge(null);
    await fetch(`${challengeUrl}/${completed ? 'complete' : 'fail'}`, { method: 'POST' });
    const query = new URLSearchParams({ key: publishableKey, client_secret: payment.clientSecret });
    const response = await fetch(`${simulatorUrl}/v1/payment_intents/${encodeURIComponent(payment.paymentIntentId)}?${query.toString()}`);
    const intent = (await response.json()) as SimulatedIntent;
    return intent.status === 'succeeded' ? { ok: true } : { ok: false, error: intent.last_payment_error?.message ?? MSG.payments.failed };
  }

  async function confirm(): Promise<CardConfirmation> {
    const digits = number.replace(/\D/g, '');
    const expires = parseExpiry(expiry);
    if (!digits || !expires) return { ok: false, error: MSG.payments.checkCard };
    const body = new URLSearchParams({
      key: publishableKey,
      client_secret: payment.clientSecret,
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': digits,
      'payment_method_data[card][exp_month]': expires.month,
      'payment_method_data[card][exp_year]': expires.year,
      'payment_method_data[card][cvc]': cvc.trim(),
    });
    const response = await fetch(`${simulatorUrl}/v1/payment_intents/${encodeURIComponent(payment.paymentIntentId)}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const answer: unknown = await response.json().catch(() => undefined);
    if (response.ok) {
      const intent = (answer ?? {}) as SimulatedIntent;
      const challengeUrl = intent.status === 'requires_action' ? intent.next_action?.use_stripe_sdk?.stripe_js : undefined;
      if (challengeUrl) return authenticate(challengeUrl);
      return intent.status === 'succeeded' ? { ok: true } : { ok: false, error: MSG.payments.failed };
    }
    return { ok: false, error: cardErrorText(isCardErrorBody(answer) ? answer.error : {}) };
  }

  return (
    <CardFormShell
      amount={payment.amount}
      confirm={confirm}
      onPaid={onPaid}
      challenge={
        challenge ? (
          <div className="card-form__challenge" role="group" aria-labelledby="challenge-heading">
            <p id="challenge-heading">
              <strong>3D Secure test authentication</strong>: your bank asks you to confirm this payment.
            </p>
            <button type="button" className="button" autoFocus onClick={() => challenge.answer(true)}>
              Complete authentication
            </button>{' '}
            <button type="button" className="button button--secondary" onClick={() => challenge.answer(false)}>
              Fail authentication
            </button>
          </div>
        ) : null
      }
    >
      <FormField label="Card number">
        {(control) => (
          <input {...control} name="cardNumber" inputMode="numeric" autoComplete="cc-number" value={number} onChange={(event) => setNumber(event.target.value)} />
        )}
      </FormField>
      <div className="card-form__row">
        <FormField label="Expiry (MM/YY)">
          {(control) => (
            <input {...control} name="cardExpiry" autoComplete="cc-exp" placeholder="MM/YY" value={expiry} onChange={(event) => setExpiry(event.target.value)} />
          )}
        </FormField>
        <FormField label="CVC">
          {(control) => (
            <input {...control} name="cardCvc" inputMode="numeric" autoComplete="cc-csc" value={cvc} onChange={(event) => setCvc(event.target.value)} />
          )}
        </FormField>
      </div>
    </CardFormShell>
  );
}
