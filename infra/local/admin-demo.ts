import type { OwnProfile } from '../../shared/api.js';
import { demoApi } from './demo-api.js';
import type { LocalStack } from './stack.js';

/**
 * The admin console's demo data, made through the API as people would: a job in Denver paid
 * and released (revenue and profit), one in Portland paid and refunded by the admin (a
 * refunded payment and an audit entry), and a worker's report on an Austin job (a pending
 * flag). With the dozen Austin jobs, the analytics show three markets.
 */
export async function seedAdminDemo(stack: LocalStack, idTokenOf: (email: string) => Promise<string>, reportedJobId: string): Promise<void> {
  const tokens = await Promise.all(['paula', 'omar', 'wendy', 'marco', 'admin'].map((name) => idTokenOf(`${name}@oddjobs.test`)));
  const [paula, omar, wendy, marco, admin] = tokens as [string, string, string, string, string];
  const { call, postPaid } = demoApi(stack);

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
