import Stripe from 'stripe';
import type { JobPaymentStart, JobSummary, OwnProfile } from '../../shared/api.js';
import { LOCAL_STRIPE_KEYS, type LocalStack } from './stack.js';

/**
 * The admin console's demo data, made through the API as people would: a job in Denver paid
 * and released (revenue and profit), one in Portland paid and refunded by the admin (a
 * refunded payment and an audit entry), and a worker's report on an Austin job (a pending
 * flag). With the dozen Austin jobs, the analytics show three markets.
 */
export async function seedAdminDemo(stack: LocalStack, idTokenOf: (email: string) => Promise<string>, reportedJobId: string): Promise<void> {
  const tokens = await Promise.all(['paula', 'omar', 'wendy', 'marco', 'admin'].map((name) => idTokenOf(`${name}@oddjobs.test`)));
  const [paula, omar, wendy, marco, admin] = tokens as [string, string, string, string, string];
  const call = async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.urls.api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`demo ${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const simulator = new URL(stack.urls.stripe);
  const stripe = new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: simulator.hostname, port: Number(simulator.port), protocol: 'http', maxNetworkRetries: 0 });
  const postPaid = async (token: string, job: { title: string; description: string; street: string; city: string; state: string; payment: number }) => {
    const started = await call<JobPaymentStart>('POST', '/jobs', token, {
      title: job.title,
      description: job.description,
      address: { street: job.street, city: job.city, state: job.state },
      payment: job.payment,
      category: 'Handyman',
      date: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
      duration: '2 hours',
    });
    await stripe.paymentIntents.confirm(started.payment.paymentIntentId, { payment_method: 'pm_card_visa' });
    return { job: await call<JobSummary>('POST', '/payments/confirm', token, { paymentIntentId: started.payment.paymentIntentId }), paymentIntentId: started.payment.paymentIntentId };
  };

  const released = await postPaid(paula, { title: 'Hang three shelves', description: 'Floating shelves in a living room; brackets included.', street: '1600 Champa St', city: 'Denver', state: 'CO', payment: 30_000 });
  await call('POST', `/jobs/${released.job.id}/applications`, wendy, { message: 'Happy to help this week.' });
  const worker = await call<OwnProfile>('GET', '/me', wendy);
  await call('POST', `/jobs/${released.job.id}/applications/${worker.id}/accept`, paula, {});
  await call('POST', `/jobs/${released.job.id}/complete`, wendy, {});
  await call('POST', `/jobs/${released.job.id}/release-payment`, paula, {});

  const refunded = await postPaid(omar, { title: 'Replace a door lock', description: 'Front door deadbolt; new lock already bought.', street: '900 SW 5th Ave', city: 'Portland', state: 'OR', payment: 8_000 });
  await call('POST', `/admin/payments/${refunded.paymentIntentId}/refund`, admin, { reason: 'Posted twice by mistake' });

  await call('POST', `/jobs/${reportedJobId}/flags`, marco, { flagType: 'spam', reason: 'The same job is posted several times.' });
  await stack.events.idle();
}
