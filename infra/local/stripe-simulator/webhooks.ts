import { setTimeout as sleep } from 'node:timers/promises';
import Stripe from 'stripe';
import { nowSeconds, type StripeEvent } from './objects.js';
import { EVENT_RETENTION_SECONDS } from './store.js';

/** Like Stripe, a refused delivery is retried with backoff; Stripe's three days are compressed to about 4 s. */
const RETRY_DELAYS_MS = [200, 1000, 3000];
/** How long an endpoint may take to answer one attempt, about what Stripe allows. */
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface DeliveryOptions {
  /** Each event is sent this many times, the copies at the same moment (duplicates racing each other). */
  copies: number;
  /** The events one request created are sent in random order instead of creation order. */
  shuffle: boolean;
  /** The events one request created are sent this long after it (0: at once). */
  delayMs: number;
}

const shuffled = <Item>(items: readonly Item[]): Item[] =>
  items
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);

/** One attempt to deliver an event, and the endpoint's answer (0 while none came, or none will). */
export interface DeliveryAttempt {
  readonly eventId: string;
  readonly type: string;
  /** When it was made, in seconds (Stripe's timestamps). */
  readonly created: number;
  status: number;
}

/**
 * Posts events to the webhook endpoint the way Stripe does: the JSON payload pretty-printed as
 * Stripe sends it, a `Stripe-Signature` header made by the SDK's own signing code (so
 * `stripe.webhooks.constructEvent` accepts it exactly as it accepts Stripe's), any answer but 2xx
 * counted as a failure and retried. Redirects are not followed, as Stripe does not follow them.
 */
export class WebhookSender {
  private options: DeliveryOptions = { copies: 1, shuffle: false, delayMs: 0 };
  private readonly inFlight = new Set<Promise<void>>();
  /** First attempts go out batch after batch in creation order, as a developer reads them in the logs. */
  private queue: Promise<void> = Promise.resolve();
  private readonly stopped = new AbortController();

  /** The endpoint's signing secrets, newest first: two while a rolled secret has not expired. */
  private secrets: string[];
  private readonly attempts: DeliveryAttempt[] = [];

  constructor(
    secret: string,
    private url?: string,
    /** The endpoint's `enabled_events`; undefined: every type. */
    private readonly enabledEvents?: readonly string[],
  ) {
    this.secrets = [secret];
  }

  /** The dashboard's "Roll secret": deliveries carry a signature with the new secret and one with each older one until it expires. */
  rollSecret(secret: string): void {
    this.secrets = [secret, ...this.secrets];
  }

  /** A rolled secret's expiry: deliveries are no longer signed with it. */
  expireSecret(secret: string): void {
    if (!this.secrets.includes(secret) || this.secrets.length === 1) throw new Error(`${secret} is not a rolled secret of this endpoint that may expire`);
    this.secrets = this.secrets.filter((candidate) => candidate !== secret);
  }

  /** Every attempt to deliver an event in the last 30 days, retries included, oldest first. */
  deliveryAttempts(): DeliveryAttempt[] {
    return [...this.attempts];
  }

  setUrl(url: string): void {
    this.url = url;
  }

  setDelivery(options: Partial<DeliveryOptions>): void {
    const { copies } = options;
    if (copies !== undefined && !(Number.isInteger(copies) && copies >= 1)) throw new RangeError(`copies must be a whole number of at least 1, not ${copies}`);
    this.options = { ...this.options, ...options };
  }

  /** For `pending_webhooks` on new events. */
  get endpointCount(): number {
    return this.url ? 1 : 0;
  }

  /** Delivers the events one state change created (call it once the API has answered). */
  send(all: StripeEvent[]): void {
    const { url, enabledEvents } = this;
    // As Stripe does, an endpoint receives only the types it is subscribed to.
    const events = enabledEvents ? all.filter((event) => enabledEvents.includes(event.type)) : all;
    if (!url || !events.length) return;
    const { copies, shuffle, delayMs } = this.options;
    const ordered = shuffle ? shuffled(events) : events;
    this.queue = this.queue.then(async () => {
      if (delayMs) await sleep(delayMs, undefined, { signal: this.stopped.signal }).catch(() => undefined);
      for (const event of ordered) await Promise.all(Array.from({ length: copies }, () => this.deliver(url, event)));
    });
    this.track(this.queue);
  }

  /** One more delivery of an event, as the dashboard's "Resend" does: a single attempt; rejects if the endpoint refuses it. */
  async redeliver(event: StripeEvent): Promise<void> {
    if (!this.url) throw new Error('No webhook URL is set');
    const attempt = this.attempt(this.url, event);
    this.track(attempt.then(() => undefined));
    const failure = await attempt;
    if (failure) throw new Error(`Redelivery of ${event.id} to ${this.url} failed: ${failure}`);
  }

  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** Drops pending retries (the simulator is closing). */
  stop(): void {
    this.stopped.abort();
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** The first attempt is awaited (it keeps the order); retries continue in the background. */
  private async deliver(url: string, event: StripeEvent): Promise<void> {
    const failure = await this.attempt(url, event);
    if (failure) this.track(this.retry(url, event, failure));
  }

  private async retry(url: string, event: StripeEvent, firstFailure: string): Promise<void> {
    let failure: string | undefined = firstFailure;
    for (const delay of RETRY_DELAYS_MS) {
      try {
        await sleep(delay, undefined, { signal: this.stopped.signal });
      } catch {
        return;
      }
      failure = await this.attempt(url, event);
      if (!failure) return;
    }
    console.error(`[stripe] webhook ${event.type} ${event.id} to ${url} failed ${RETRY_DELAYS_MS.length + 1} times (${failure}); giving up`);
  }

  /**
   * The Stripe-Signature header: the time, then a v1 signature with each current secret, as
   * Stripe signs while a rolled secret has not expired (`t=…,v1=…,v1=…`).
   */
  private signature(payload: string): string {
    const timestamp = Math.floor(Date.now() / 1000);
    const [first, ...more] = this.secrets.map((secret) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }));
    return [first, ...more.map((header) => header.replace(/^t=\d+,/, ''))].join(',');
  }

  /** One signed POST; resolves to why it failed, or undefined when the endpoint accepted it. */
  private async attempt(url: string, event: StripeEvent): Promise<string | undefined> {
    const payload = JSON.stringify(event, null, 2);
    const attempt: DeliveryAttempt = { eventId: event.id, type: event.type, created: nowSeconds(), status: 0 };
    this.attempts.push(attempt);
    // Kept as long as their events are (30 days), so the log is bounded as the events are.
    const kept = this.attempts.findIndex((candidate) => candidate.created >= attempt.created - EVENT_RETENTION_SECONDS);
    if (kept > 0) this.attempts.splice(0, kept);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': this.signature(payload),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), this.stopped.signal]),
      });
      await response.arrayBuffer();
      attempt.status = response.status;
      return response.ok ? undefined : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
