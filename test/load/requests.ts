/** The requests the setup and the virtual users both make, built in one place. */

/** A job in Austin for tomorrow, as the post form sends it. */
export const jobRequest = (title: string, description: string) => ({
  title,
  description,
  address: { street: '1 Main St', city: 'Austin', state: 'TX' },
  payment: 5000,
  category: 'Other',
  date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  duration: '1 hour',
});

/** The card step as Stripe.js makes it: the PaymentIntent confirmed with the publishable key, its client secret and Stripe's test card that succeeds. */
export function testCardConfirmation(stripeApiUrl: string, publishableKey: string, payment: { paymentIntentId: string; clientSecret: string }) {
  return {
    url: `${stripeApiUrl}/v1/payment_intents/${payment.paymentIntentId}/confirm`,
    init: {
      method: 'POST',
      headers: { authorization: `Bearer ${publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: payment.clientSecret, payment_method: 'pm_card_visa' }),
    } satisfies RequestInit,
  };
}
