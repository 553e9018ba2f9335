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

/** The demo's assigned job with a price change waiting (issue 45): Omar's, worked by Wendy. */
export const DEMO_PRICE_CHANGE_JOB = {
  title: 'Clear out a garden shed',
  description: 'Empty the shed, sweep it and take what is broken to the dump. Gloves and bags provided.',
  street: '1100 S Lamar Blvd',
  city: 'Austin',
  state: 'TX',
  payment: 12_000,
  category: 'Yard Work',
} as const;

/**
 * Offers on first start, made through the API as people would: Paula's job open to offers (paid
 * at its $150 budget), Wendy's offer under it with when she can come, and Marco's, which Paula
 * countered — so the poster sees two offers beside their workers' ratings, and Marco a
 * counter-offer waiting for his answer. And a price change: Omar's shed, assigned to Wendy, who
 * asks for less because half of it is already empty — waiting for Omar's answer.
 */
export async function seedOffersDemo(stack: LocalStack, idTokenOf: (email: string) => Promise<string>): Promise<void> {
  const [paula, wendy, marco, omar] = await Promise.all(['paula', 'wendy', 'marco', 'omar'].map((name) => idTokenOf(`${name}@oddjobs.test`)));
  const { call, postPaid } = demoApi(stack);
  const { job } = await postPaid(paula!, DEMO_OFFERS_JOB);
  await call('POST', `/jobs/${job.id}/applications`, wendy!, { amount: 12_000, availability: 'Saturday morning', message: 'I assemble flat-pack furniture every week and bring my own tools.' });
  await call('POST', `/jobs/${job.id}/applications`, marco!, { amount: 14_000, availability: 'This weekend', message: 'Both pieces in one visit.' });
  const marcoProfile = await call<OwnProfile>('GET', '/me', marco!);
  await call('POST', `/jobs/${job.id}/applications/${marcoProfile.id}/counter`, paula!, { amount: 12_500 });

  const { job: shed } = await postPaid(omar!, DEMO_PRICE_CHANGE_JOB);
  const wendyProfile = await call<OwnProfile>('GET', '/me', wendy!);
  await call('POST', `/jobs/${shed.id}/applications`, wendy!, { message: 'I have a truck for the dump run.' });
  await call('POST', `/jobs/${shed.id}/applications/${wendyProfile.id}/accept`, omar!, {});
  await call('POST', `/jobs/${shed.id}/price-change`, wendy!, { amount: 9_000, reason: 'Half of the shed is already empty, so it is a shorter job than described.' });
  await stack.events.idle();
}
