import { lazy, Suspense } from 'react';
import { useConfig } from '../../../lib/useConfig';
import { LoadingState } from '../../../lib/components/LoadingState';
import type { CardFormProps } from './card-form';
import { SimulatorCardForm } from './SimulatorCardForm';

// Stripe.js and Elements are loaded only where they are used: in AWS, never on the local stack.
const StripeCardForm = lazy(() => import('./StripeCardForm'));

/**
 * Pays a PaymentIntent by card: against the local Stripe simulator when the runtime config
 * names one, with Stripe Elements otherwise. `onPaid` runs once the card was charged.
 */
export function CardPaymentStep(props: CardFormProps) {
  const { simulatorUrl } = useConfig().stripe;
  if (simulatorUrl) return <SimulatorCardForm simulatorUrl={simulatorUrl} {...props} />;
  return (
    <Suspense fallback={<LoadingState label="Loading the card form..." />}>
      <StripeCardForm {...props} />
    </Suspense>
  );
}
