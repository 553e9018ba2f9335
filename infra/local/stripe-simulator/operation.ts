import Stripe from 'stripe';
import type { ParamReader } from './params.js';
import { newId, nowSeconds, type EventType, type StripeEvent, type StripeObject } from './objects.js';
import type { SimulatorStore } from './store.js';

/**
 * One state change: an API request or an onboarding form post. Handlers mutate the store directly
 * and record events here; the events are stored at once and delivered together after the response,
 * as Stripe sends webhooks after answering.
 */
export class Operation {
  readonly events: StripeEvent[] = [];

  constructor(
    readonly store: SimulatorStore,
    private readonly request: Stripe.Event.Request,
    private readonly pendingWebhooks: EndpointCount,
  ) {}

  /** `before` is the object as it was, for `data.previous_attributes` on update events. */
  emit(type: EventType, object: StripeObject, before?: StripeObject): void {
    const account = object.object === 'account' ? object.id : this.store.data.ownerAccounts[object.id];
    const connected = account !== undefined;
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      ...(connected ? { account } : {}),
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      data: { object: structuredClone(object), ...(before ? { previous_attributes: changedFields(before, object) } : {}) },
      livemode: false,
      pending_webhooks: this.pendingWebhooks(connected),
      request: this.request,
      type,
    };
    this.store.recordEvent(event);
    this.events.push(event);
  }
}

/** The top-level fields that differ, with their old values (what Stripe puts in previous_attributes). */
function changedFields(before: StripeObject, after: StripeObject): Record<string, unknown> {
  const current = new Map(Object.entries(after));
  return Object.fromEntries(Object.entries(before).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(current.get(field))));
}

/** How many endpoints an event goes to: the Connect endpoints for events of connected accounts, the account's own otherwise. */
export type EndpointCount = (connectedAccountEvent: boolean) => number;

export type KeyType = 'secret' | 'publishable';

/** What an API handler receives. */
export interface ApiCall {
  op: Operation;
  /** The id in the URL path, or '' for collection routes. */
  id: string;
  params: ParamReader;
  keyType: KeyType;
  /** The simulator's own address, for URLs it hands out (account links). */
  baseUrl: string;
  /** The connected account the request acts as (the Stripe-Account header), on routes that allow it. */
  account?: string;
}
