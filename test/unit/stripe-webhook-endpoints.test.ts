import { describe, expect, it } from 'vitest';
import { EVENT_RULES, EVENT_SOURCE, HTTP_ROUTE_GROUPS, STRIPE_WEBHOOK_ENDPOINTS, type EventRule } from '../../functions/routes.js';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../../functions/lib/stripe.js';
import { syncWebhookEndpoints, type WebhookEndpointsApi } from '../../infra/stripe-webhooks.js';

const stripeRules = (Object.values(EVENT_RULES) as EventRule[]).filter((rule) => rule.pattern.source.includes(EVENT_SOURCE.stripe));

describe("Stripe's webhook endpoints, derived from the rules that consume their events", () => {
  it('subscribes every event type a rule consumes, at one endpoint only', () => {
    const consumed = stripeRules.flatMap((rule) => rule.pattern['detail-type'] ?? []);
    const subscribed = [...STRIPE_WEBHOOK_ENDPOINTS.account.events, ...STRIPE_WEBHOOK_ENDPOINTS.connect.events];
    expect(new Set(subscribed).size).toBe(subscribed.length);
    expect([...new Set(consumed)].sort()).toEqual([...subscribed].sort());
  });

  it("subscribes the connected accounts' events (account updates, their payouts) at the Connect endpoint, where Stripe sends them", () => {
    expect(STRIPE_WEBHOOK_ENDPOINTS.connect.events).toEqual(expect.arrayContaining(['account.updated', 'payout.failed', 'payout.paid']));
    expect(STRIPE_WEBHOOK_ENDPOINTS.account.events).toEqual(expect.arrayContaining(['refund.created', 'payment_intent.succeeded', 'transfer.created', 'charge.dispute.created', 'charge.dispute.closed']));
  });

  it("names the webhook routes the API serves, each with its own signing secret", () => {
    const routes = Object.keys(HTTP_ROUTE_GROUPS.stripeWebhook.routes);
    for (const { path } of Object.values(STRIPE_WEBHOOK_ENDPOINTS)) expect(routes).toContain(`POST ${path}`);
    expect(new Set(Object.values(STRIPE_WEBHOOK_ENDPOINTS).map((endpoint) => endpoint.secret)).size).toBe(2);
  });
});

describe('npm run stripe:webhooks', () => {
  /** The Stripe account's endpoints, as the API keeps them. */
  function account(initial: Array<{ id: string; url: string; enabled_events: string[]; connect?: boolean; api_version?: string | null }>) {
    const endpoints = initial.map((endpoint) => ({ status: 'enabled', connect: false, api_version: STRIPE_API_VERSION as string | null, ...endpoint }));
    const api: WebhookEndpointsApi = {
      list: () => ({ autoPagingToArray: async () => endpoints.map((endpoint) => ({ ...endpoint })) }),
      create: async (params) => {
        const created = {
          id: `we_${endpoints.length + 1}`,
          url: params.url,
          enabled_events: [...params.enabled_events],
          status: 'enabled',
          connect: params.connect ?? false,
          api_version: (params.api_version as string | undefined) ?? null,
        };
        endpoints.push(created);
        return { id: created.id, secret: `whsec_${created.id}` };
      },
      update: async (id, params) => {
        const endpoint = endpoints.find((candidate) => candidate.id === id)!;
        endpoint.enabled_events = [...(params.enabled_events ?? endpoint.enabled_events)];
        return { id };
      },
      del: async (id) => endpoints.splice(endpoints.findIndex((candidate) => candidate.id === id), 1),
    };
    return { api, endpoints };
  }

  it('creates both endpoints under the API with the derived event types, the Connect one for connected accounts, and returns their signing secrets', async () => {
    const { api, endpoints } = account([]);
    const { changes, secrets } = await syncWebhookEndpoints('https://jobs.example.com/api/', api);
    expect(changes.map((change) => [change.action, change.url])).toEqual([
      ['created', 'https://jobs.example.com/api/webhooks/stripe'],
      ['created', 'https://jobs.example.com/api/webhooks/stripe/connect'],
    ]);
    expect(endpoints).toEqual([
      expect.objectContaining({ url: 'https://jobs.example.com/api/webhooks/stripe', enabled_events: STRIPE_WEBHOOK_ENDPOINTS.account.events, connect: false, api_version: STRIPE_API_VERSION }),
      expect.objectContaining({ url: 'https://jobs.example.com/api/webhooks/stripe/connect', enabled_events: STRIPE_WEBHOOK_ENDPOINTS.connect.events, connect: true, api_version: STRIPE_API_VERSION }),
    ]);
    expect(secrets).toEqual({ webhookSecret: 'whsec_we_1', connectWebhookSecret: 'whsec_we_2' });
  });

  it('updates the endpoints that exist (the Connect one subscribed to account.updated alone, as docs/deploy.md once said) and keeps their secrets', async () => {
    const { api, endpoints } = account([
      { id: 'we_old', url: 'https://jobs.example.com/api/webhooks/stripe', enabled_events: ['payment_intent.succeeded'] },
      { id: 'we_connect', url: 'https://jobs.example.com/api/webhooks/stripe/connect', enabled_events: ['account.updated'], connect: true },
      { id: 'we_other', url: 'https://other.example.com/hook', enabled_events: ['*'] },
    ]);
    const { changes, secrets } = await syncWebhookEndpoints('https://jobs.example.com/api', api);
    expect(changes.map((change) => change.action)).toEqual(['updated', 'updated']);
    expect(secrets).toEqual({});
    expect(endpoints.find((endpoint) => endpoint.id === 'we_connect')!.enabled_events).toEqual(STRIPE_WEBHOOK_ENDPOINTS.connect.events);
    expect(endpoints.find((endpoint) => endpoint.id === 'we_connect')!.enabled_events).toContain('payout.paid');
    expect(endpoints.find((endpoint) => endpoint.id === 'we_other')!.enabled_events).toEqual(['*']);
  });

  it("replaces an endpoint of another API version (Stripe cannot change one's), returning the new secret and the old endpoint to delete", async () => {
    const { api, endpoints } = account([
      { id: 'we_unpinned', url: 'https://jobs.example.com/api/webhooks/stripe', enabled_events: [...STRIPE_WEBHOOK_ENDPOINTS.account.events], api_version: null },
      { id: 'we_connect', url: 'https://jobs.example.com/api/webhooks/stripe/connect', enabled_events: [...STRIPE_WEBHOOK_ENDPOINTS.connect.events], connect: true },
    ]);
    const { changes, secrets, replaced } = await syncWebhookEndpoints('https://jobs.example.com/api', api);
    expect(changes.map((change) => change.action)).toEqual(['replaced', 'updated']);
    expect(replaced).toEqual(['we_unpinned']);
    expect(secrets).toEqual({ webhookSecret: 'whsec_we_3' });
    expect(endpoints.find((endpoint) => endpoint.id === 'we_3')).toMatchObject({ url: 'https://jobs.example.com/api/webhooks/stripe', api_version: STRIPE_API_VERSION });
  });
});

describe('the pinned Stripe API version', () => {
  it("is the installed SDK's: the version its types and the simulator's objects describe", () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });
});
