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

/**
 * Local stack only: a plain card form that confirms the PaymentIntent against the Stripe test-mode
 * simulator, as Stripe.js would (publishable key and client secret, card details form-encoded).
 */
export function SimulatorCardForm({ simulatorUrl, payment, onPaid }: CardFormProps & { simulatorUrl: string }) {
  const { publishableKey } = useConfig().stripe;
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');

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
      const succeeded = typeof answer === 'object' && answer !== null && (answer as { status?: unknown }).status === 'succeeded';
      return succeeded ? { ok: true } : { ok: false, error: MSG.payments.failed };
    }
    return { ok: false, error: cardErrorText(isCardErrorBody(answer) ? answer.error : {}) };
  }

  return (
    <CardFormShell amount={payment.amount} confirm={confirm} onPaid={onPaid}>
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
