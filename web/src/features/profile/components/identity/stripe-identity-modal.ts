/**
 * In AWS: Stripe.js's own verification modal (document and selfie capture, on Stripe's pages).
 * Loaded only when someone verifies. What it answers says nothing of the result — that comes
 * by webhook to the profile — only whether the person could not go on.
 */
export async function openStripeIdentityModal(publishableKey: string, clientSecret: string): Promise<void> {
  const { loadStripe } = await import('@stripe/stripe-js');
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe.js did not load');
  await stripe.verifyIdentity(clientSecret);
}
