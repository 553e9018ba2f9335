import Stripe from 'stripe';
import type { JobPaymentStart, JobSummary } from '../../shared/api.js';
import { LOCAL_STRIPE_KEYS, type LocalStack } from './stack.js';

/** A demo job posted through the API: where, what, and its payment (the budget, when open to offers). */
export interface DemoPost {
  title: string;
  description: string;
  street: string;
  city: string;
  state: string;
  payment: number;
  category?: string;
  openToOffers?: boolean;
}

/**
 * The demo's way through the API, as people go: calls with a user's token (a refusal stops the
 * seeding, naming the call), and a job posted and paid with Stripe's test card through the
 * simulator, as the browser's card step does.
 */
export function demoApi(stack: LocalStack) {
  const call = async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.urls.api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`demo ${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
  const simulator = new URL(stack.urls.stripe);
  const stripe = new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: simulator.hostname, port: Number(simulator.port), protocol: 'http', maxNetworkRetries: 0 });
  const postPaid = async (token: string, job: DemoPost) => {
    const started = await call<JobPaymentStart>('POST', '/jobs', token, {
      title: job.title,
      description: job.description,
      address: { street: job.street, city: job.city, state: job.state },
      payment: job.payment,
      category: job.category ?? 'Handyman',
      date: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
      duration: '2 hours',
      openToOffers: job.openToOffers ?? false,
    });
    await stripe.paymentIntents.confirm(started.payment.paymentIntentId, { payment_method: 'pm_card_visa' });
    return { job: await call<JobSummary>('POST', '/payments/confirm', token, { paymentIntentId: started.payment.paymentIntentId }), paymentIntentId: started.payment.paymentIntentId };
  };
  return { call, postPaid };
}
