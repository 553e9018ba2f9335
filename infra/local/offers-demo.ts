import type { OwnProfile } from '../../shared/api.js';
import { demoApi } from './demo-api.js';
import type { LocalStack } from './stack.js';

/** The demo's job open to offers (issue 45): its title, for the browser tests that look for it. */
export const DEMO_OFFERS_JOB = {
  title: 'Assemble a wardrobe and a bed frame',
  description: 'Flat-pack wardrobe and a queen bed frame, both still in their boxes, in a second-floor bedroom. Offer what you would do it for.',
  street: '600 Congress Ave',
  city: 'Austin',
  state: 'TX',
  payment: 15_000,
  category: 'Assembly',
  openToOffers: true,
} as const;

/**
 * Offers on first start, made through the API as people would: Paula's job open to offers (paid
 * at its $150 budget), Wendy's offer under it with when she can come, and Marco's, which Paula
 * countered — so the poster sees two offers beside their workers' ratings, and Marco a
 * counter-offer waiting for his answer.
 */
export async function seedOffersDemo(stack: LocalStack, idTokenOf: (email: string) => Promise<string>): Promise<void> {
  const [paula, wendy, marco] = await Promise.all(['paula', 'wendy', 'marco'].map((name) => idTokenOf(`${name}@oddjobs.test`)));
  const { call, postPaid } = demoApi(stack);
  const { job } = await postPaid(paula!, DEMO_OFFERS_JOB);
  await call('POST', `/jobs/${job.id}/applications`, wendy!, { amount: 12_000, availability: 'Saturday morning', message: 'I assemble flat-pack furniture every week and bring my own tools.' });
  await call('POST', `/jobs/${job.id}/applications`, marco!, { amount: 14_000, availability: 'This weekend', message: 'Both pieces in one visit.' });
  const marcoProfile = await call<OwnProfile>('GET', '/me', marco!);
  await call('POST', `/jobs/${job.id}/applications/${marcoProfile.id}/counter`, paula!, { amount: 12_500 });
  await stack.events.idle();
}
