import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { MSG } from '../../../../../shared/messages';
import { useConfig } from '../../../lib/useConfig';
import { CardFormShell, type CardConfirmation } from './CardFormShell';
import type { CardFormProps } from './card-form';
import { cardErrorText } from './card-errors';

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js, loaded once per key and only when a card is to be paid (a failed load leaves the form unusable, not the app). */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => null);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

/** In AWS: the card in Stripe Elements, confirmed by Stripe.js against real Stripe (its own chunk). */
export default function StripeCardForm(props: CardFormProps) {
  const { publishableKey } = useConfig().stripe;
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <ElementsCardForm {...props} />
    </Elements>
  );
}

function ElementsCardForm({ payment, onPaid }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();

  async function confirm(): Promise<CardConfirmation> {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return { ok: false, error: MSG.payments.initFailed };
    const { error, paymentIntent } = await stripe.confirmCardPayment(payment.clientSecret, { payment_method: { card } });
    if (error) return { ok: false, error: cardErrorText(error) };
    return paymentIntent.status === 'succeeded' ? { ok: true } : { ok: false, error: MSG.payments.failed };
  }

  return (
    <CardFormShell amount={payment.amount} confirm={confirm} onPaid={onPaid}>
      <div className="field">
        <span className="field__label">Card details</span>
        <div className="card-form__element">
          <CardElement options={{ hidePostalCode: true }} />
        </div>
      </div>
    </CardFormShell>
  );
}
