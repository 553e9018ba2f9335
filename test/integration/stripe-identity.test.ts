import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listen, readBody } from '../../infra/local/http-util.js';
import { startStripeSimulator, type StripeSimulator } from '../../infra/local/stripe-simulator.js';

/**
 * Stripe Identity's VerificationSessions in the local Stripe simulator (issue 47): the API
 * (create, retrieve, list, cancel, redact), the test-mode page whose outcomes the app's own
 * dialog posts, and the events each change sends to the platform's own webhook endpoint.
 */

const KEYS = {
  secretKey: 'sk_test_identity',
  publishableKey: 'pk_test_identity',
  webhookSecret: 'whsec_identity_account',
  connectWebhookSecret: 'whsec_identity_connect',
};
/** How long an "async" outcome stays processing here: long enough for a busy machine's few requests meanwhile. */
const PROCESSING_MS = 1500;
/** Waits for an async outcome to settle. */
const settled = { timeout: PROCESSING_MS + 5000, interval: 50 };
const APP = 'http://localhost:5173';

type Session = Stripe.Identity.VerificationSession;

/** A webhook endpoint that verifies each delivery's signature, as the app's handler does, and keeps the events in arrival order. */
async function startReceiver(secret: string) {
  const events: Stripe.Event[] = [];
  const refused: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      try {
        events.push(Stripe.webhooks.constructEvent(body.toString('utf8'), String(req.headers['stripe-signature']), secret));
        res.writeHead(200).end();
      } catch (error) {
        refused.push(String(error));
        res.writeHead(400).end();
      }
    });
  });
  const listening = await listen(server, 0);
  return {
    ...listening,
    events,
    refused,
    /** The types of the events received about one session, in arrival order. */
    typesAbout: (id: string) => events.filter((event) => (event.data.object as { id?: string }).id === id).map((event) => event.type),
    about: (id: string, type: string) => events.filter((event) => event.type === type && (event.data.object as { id?: string }).id === id).map((event) => event.data.object as Session),
  };
}

describe('Stripe Identity VerificationSessions in the simulator', () => {
  let simulator: StripeSimulator;
  let stripe: Stripe;
  let account: Awaited<ReturnType<typeof startReceiver>>;
  let connect: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    account = await startReceiver(KEYS.webhookSecret);
    connect = await startReceiver(KEYS.connectWebhookSecret);
    simulator = await startStripeSimulator({ port: 0, ...KEYS, webhookUrl: account.url, connectWebhookUrl: connect.url, identityProcessingMs: PROCESSING_MS });
    stripe = new Stripe(KEYS.secretKey, { host: '127.0.0.1', port: simulator.port, protocol: 'http', maxNetworkRetries: 0 });
  });

  afterAll(async () => {
    await simulator?.close();
    await account?.close();
    await connect?.close();
  });

  afterEach(async () => {
    await simulator.idle();
    // Every delivery verified with the account endpoint's secret; none went to the Connect endpoint.
    expect(account.refused).toEqual([]);
    expect(connect.events.map((event) => event.type)).toEqual([]);
    simulator.setDelivery({ copies: 1, shuffle: false, delayMs: 0 });
  });

  const createSession = (params: Stripe.Identity.VerificationSessionCreateParams = {}) =>
    stripe.identity.verificationSessions.create({
      type: 'document',
      options: { document: { require_matching_selfie: true } },
      metadata: { user_id: 'user-1' },
      client_reference_id: 'user-1',
      ...params,
    });

  /** What the app's test dialog does: POST the chosen outcome with the client secret, from its origin, asking for JSON. */
  const submit = async (id: string, outcome: string, clientSecret: string | null | undefined, { json = true, inQuery = false } = {}) => {
    const secret = new URLSearchParams(clientSecret === undefined || clientSecret === null ? {} : { client_secret: clientSecret });
    const response = await fetch(`${simulator.url}/identity/${id}/${outcome}${inQuery ? `?${secret.toString()}` : ''}`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/x-www-form-urlencoded', ...(json ? { accept: 'application/json' } : {}) },
      body: inQuery ? '' : secret,
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: json ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };

  /** Waits for deliveries in flight, then answers the event types about the session. */
  const eventTypes = async (id: string) => {
    await simulator.idle();
    return account.typesAbout(id);
  };

  describe('create and retrieve', () => {
    it("creates a document check waiting for input, with Stripe's fields, a client secret and the hosted page", async () => {
      const session = await createSession({ options: { document: { require_matching_selfie: true, allowed_types: ['driving_license', 'passport'] } }, return_url: `${APP}/verify/done`, provided_details: { email: 'pat@example.com' } });
      expect(session).toEqual({
        id: expect.stringMatching(/^vs_\w{24}$/),
        object: 'identity.verification_session',
        client_reference_id: 'user-1',
        client_secret: expect.stringMatching(new RegExp(`^${session.id}_secret_\\w+$`)),
        created: expect.any(Number),
        last_error: null,
        last_verification_report: null,
        livemode: false,
        metadata: { user_id: 'user-1' },
        options: { document: { allowed_types: ['driving_license', 'passport'], require_matching_selfie: true } },
        redaction: null,
        related_customer: null,
        related_customer_account: null,
        status: 'requires_input',
        type: 'document',
        url: `${simulator.url}/identity/${session.id}`,
      });
      expect(await stripe.identity.verificationSessions.retrieve(session.id)).toEqual(session);
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created']);
      expect(account.about(session.id, 'identity.verification_session.created')).toEqual([session]);
      // The event is the platform's own: no `account`, as Stripe sends it to account endpoints.
      expect(account.events.find((event) => (event.data.object as Session).id === session.id)?.account).toBeUndefined();

      // Without options, Stripe's answer has empty options.
      expect((await stripe.identity.verificationSessions.create({ type: 'document' })).options).toEqual({});
    });

    it('refuses what Stripe refuses, and what the simulator does not model, loudly', async () => {
      await expect(stripe.identity.verificationSessions.create({})).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'type' });
      await expect(stripe.identity.verificationSessions.create({ type: 'document', options: { document: { allowed_types: ['visa'] } } })).rejects.toMatchObject({
        statusCode: 400,
        param: 'options[document][allowed_types][0]',
      });
      await expect(stripe.identity.verificationSessions.create({ type: 'id_number' })).rejects.toMatchObject({ statusCode: 400, param: 'type', message: expect.stringContaining('does not support') });
      await expect(stripe.identity.verificationSessions.create({ type: 'document', options: { document: { require_id_number: true } } })).rejects.toMatchObject({
        statusCode: 400,
        param: 'options[document][require_id_number]',
      });
      await expect(stripe.identity.verificationSessions.create({ type: 'document', return_url: 'not a url' })).rejects.toMatchObject({ statusCode: 400, code: 'url_invalid', param: 'return_url' });
      await expect(stripe.identity.verificationSessions.retrieve('vs_missing')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
      await expect(stripe.identity.verificationSessions.retrieve('vs_missing', { expand: ['verified_outputs'] })).rejects.toMatchObject({ statusCode: 400, param: 'expand' });
      // A secret key only: Stripe.js never calls these endpoints.
      const browser = new Stripe(KEYS.publishableKey, { host: '127.0.0.1', port: simulator.port, protocol: 'http', maxNetworkRetries: 0 });
      await expect(browser.identity.verificationSessions.create({ type: 'document' })).rejects.toMatchObject({ statusCode: 401, code: 'secret_key_required' });
    });

    it('creates once per idempotency key, replaying the first answer', async () => {
      const create = (key: string, reference = 'user-idem') =>
        fetch(`${simulator.url}/v1/identity/verification_sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEYS.secretKey}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
          body: new URLSearchParams({ type: 'document', client_reference_id: reference, 'options[document][require_matching_selfie]': 'true' }),
        });
      const first = await create('verify-user-idem');
      const again = await create('verify-user-idem');
      const firstBody = (await first.json()) as Session;
      expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), body: await again.json() }).toEqual({ status: 200, replayed: 'true', body: firstBody });
      expect((await stripe.identity.verificationSessions.list({ client_reference_id: 'user-idem' })).data.map((session) => session.id)).toEqual([firstBody.id]);
      expect(await eventTypes(firstBody.id)).toEqual(['identity.verification_session.created']);

      const other = await create('verify-user-idem', 'someone-else');
      expect({ status: other.status, type: ((await other.json()) as { error: { type: string } }).error.type }).toEqual({ status: 400, type: 'idempotency_error' });
    });
  });

  describe('the test page and its outcomes', () => {
    it('verifies: processing, then verified, answered as JSON to the app on its origin', async () => {
      const session = await createSession();
      const answer = await submit(session.id, 'verified', session.client_secret);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.body).toEqual({ id: session.id, object: 'identity.verification_session', status: 'verified', last_error: null });

      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing', 'identity.verification_session.verified']);
      expect(account.about(session.id, 'identity.verification_session.processing')).toEqual([expect.objectContaining({ status: 'processing', client_secret: null, url: null, last_error: null })]);
      const verified = await stripe.identity.verificationSessions.retrieve(session.id);
      expect(verified).toMatchObject({ status: 'verified', last_error: null, client_secret: null, url: null, redaction: null, metadata: { user_id: 'user-1' } });
      expect(account.about(session.id, 'identity.verification_session.verified')).toEqual([verified]);

      // Done: the client secret worked once, and the page offers nothing more.
      expect((await submit(session.id, 'verified', session.client_secret)).status).toBe(404);
      expect((await fetch(session.url!)).status).toBe(404);
    });

    it.each([
      ['document_unverified', ['processing', 'requires_input'], { code: 'document_unverified_other', reason: 'The document could not be verified.' }],
      ['selfie_mismatch', ['processing', 'requires_input'], { code: 'selfie_face_mismatch', reason: "The selfie did not match the document's photo." }],
      ['consent_declined', ['requires_input'], { code: 'consent_declined', reason: 'The user declined to be verified.' }],
    ] as const)('%s: back to requires_input with its last_error, and a new client secret to try again', async (outcome, changes, lastError) => {
      const session = await createSession();
      const answer = await submit(session.id, outcome, session.client_secret);
      expect(answer).toMatchObject({ status: 200, body: { id: session.id, object: 'identity.verification_session', status: 'requires_input', last_error: lastError } });
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', ...changes.map((change) => `identity.verification_session.${change}`)]);

      const failed = await stripe.identity.verificationSessions.retrieve(session.id);
      expect(failed).toMatchObject({ status: 'requires_input', last_error: lastError, url: session.url, client_secret: expect.stringMatching(new RegExp(`^${session.id}_secret_`)) });
      expect(failed.client_secret).not.toBe(session.client_secret);
      expect(account.about(session.id, 'identity.verification_session.requires_input')).toEqual([failed]);

      // The used secret is refused; the session's new one submits again, and this time it passes.
      expect((await submit(session.id, 'verified', session.client_secret)).status).toBe(404);
      expect((await submit(session.id, 'verified', failed.client_secret)).body).toMatchObject({ status: 'verified', last_error: null });
      expect((await eventTypes(session.id)).slice(-2)).toEqual(['identity.verification_session.processing', 'identity.verification_session.verified']);
    });

    it('takes the client secret only as the session has it, as a form field or in the query', async () => {
      const session = await createSession();
      const other = await createSession();
      const refusals = [
        await submit(session.id, 'verified', undefined),
        await submit(session.id, 'verified', 'vs_wrong_secret_x'),
        await submit(session.id, 'verified', other.client_secret),
        await submit(session.id, 'approved', session.client_secret),
        await submit('vs_missing', 'verified', session.client_secret),
      ];
      expect(refusals.map(({ status, body }) => ({ status, body }))).toEqual(
        refusals.map(() => ({ status: 404, body: { error: { type: 'invalid_request_error', message: expect.stringContaining('no identity verification waiting for input') } } })),
      );
      const html = await submit(session.id, 'verified', undefined, { json: false });
      expect({ status: html.status, type: html.headers.get('content-type'), text: html.text }).toEqual({ status: 404, type: 'text/html; charset=utf-8', text: expect.stringContaining('Nothing to verify') });
      // A selfie mismatch is an outcome only where a selfie is asked for.
      const noSelfie = await createSession({ options: { document: { require_matching_selfie: false } } });
      expect((await submit(noSelfie.id, 'selfie_mismatch', noSelfie.client_secret)).status).toBe(404);
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created']);

      expect((await submit(session.id, 'verified', session.client_secret, { inQuery: true })).body).toMatchObject({ status: 'verified' });
    });

    it("shows the hosted page while the session waits for input, whose forms go back to return_url", async () => {
      const session = await createSession({ return_url: `${APP}/verify/done`, provided_details: { email: 'pat@example.com' } });
      const response = await fetch(session.url!);
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(html).toContain('<title>Stripe test mode — identity verification</title>');
      expect(html).toContain('pat@example.com');
      for (const outcome of ['verified', 'verified_async', 'document_unverified', 'document_unverified_async', 'selfie_mismatch', 'consent_declined']) {
        expect(html).toContain(`action="/identity/${session.id}/${outcome}"`);
      }
      expect(html).toContain(`name="client_secret" value="${session.client_secret}"`);

      // The form post (no JSON asked for) goes back to the app's return_url as given.
      const posted = await submit(session.id, 'document_unverified', session.client_secret, { json: false });
      expect({ status: posted.status, location: posted.headers.get('location') }).toEqual({ status: 303, location: `${APP}/verify/done` });
      // The page now names the failure and carries the new secret.
      const retry = await (await fetch(session.url!)).text();
      expect(retry).toContain('The document could not be verified.');
      expect(retry).toContain(`value="${(await stripe.identity.verificationSessions.retrieve(session.id)).client_secret}"`);

      const noReturn = await createSession();
      const done = await submit(noReturn.id, 'verified', noReturn.client_secret, { json: false });
      expect({ status: done.status, text: done.text }).toEqual({ status: 200, text: expect.stringContaining('Verification submitted. You can close this page.') });
      expect((await fetch(`${simulator.url}/identity/vs_missing`)).status).toBe(404);
    });

    it('keeps an async outcome processing, where it can be neither canceled nor redacted, and settles it on its own', async () => {
      const session = await createSession();
      expect((await submit(session.id, 'verified_async', session.client_secret)).body).toEqual({ id: session.id, object: 'identity.verification_session', status: 'processing', last_error: null });
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing']);
      await expect(stripe.identity.verificationSessions.cancel(session.id)).rejects.toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', message: expect.stringContaining('`processing`') });
      await expect(stripe.identity.verificationSessions.redact(session.id)).rejects.toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', message: expect.stringContaining('`processing`') });
      expect((await stripe.identity.verificationSessions.retrieve(session.id)).status).toBe('processing');

      await vi.waitFor(async () => expect((await stripe.identity.verificationSessions.retrieve(session.id)).status).toBe('verified'), settled);
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing', 'identity.verification_session.verified']);

      const failing = await createSession();
      await submit(failing.id, 'document_unverified_async', failing.client_secret);
      await vi.waitFor(async () => expect(await stripe.identity.verificationSessions.retrieve(failing.id)).toMatchObject({ status: 'requires_input', last_error: { code: 'document_unverified_other' } }), settled);
      expect(await eventTypes(failing.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing', 'identity.verification_session.requires_input']);
    });

    it('delivers through the delivery options and holding of every other event', async () => {
      simulator.holdDeliveries();
      const session = await createSession();
      await submit(session.id, 'verified_async', session.client_secret);
      await vi.waitFor(() => expect(simulator.events().filter((event) => event.data.object.id === session.id)).toHaveLength(3), settled);
      expect(await eventTypes(session.id)).toEqual([]);
      expect(simulator.releaseDeliveries().map((event) => event.type)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing', 'identity.verification_session.verified']);
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing', 'identity.verification_session.verified']);

      simulator.setDelivery({ copies: 2 });
      const twice = await createSession();
      expect(await eventTypes(twice.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.created']);
    });
  });

  describe('cancel and redact', () => {
    it('cancels only while waiting for input', async () => {
      const session = await createSession();
      const canceled = await stripe.identity.verificationSessions.cancel(session.id);
      expect(canceled).toMatchObject({ status: 'canceled', client_secret: null, url: null, redaction: null, metadata: { user_id: 'user-1' } });
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.canceled']);
      expect(account.about(session.id, 'identity.verification_session.canceled')).toEqual([canceled]);
      await expect(stripe.identity.verificationSessions.cancel(session.id)).rejects.toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', message: expect.stringContaining('`canceled`') });
      expect((await submit(session.id, 'verified', session.client_secret)).status).toBe(404);

      const verified = await createSession();
      await submit(verified.id, 'verified', verified.client_secret);
      await expect(stripe.identity.verificationSessions.cancel(verified.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('`verified`') });
      expect((await stripe.identity.verificationSessions.retrieve(verified.id)).status).toBe('verified');
    });

    it("redacts a session waiting for input by canceling it, answering Stripe's processing redaction and finishing at once", async () => {
      const session = await createSession({ provided_details: { email: 'pat@example.com' } });
      const answer = await stripe.identity.verificationSessions.redact(session.id);
      expect(answer).toMatchObject({ status: 'canceled', client_secret: null, url: null, redaction: { status: 'processing' }, client_reference_id: 'user-1' });
      expect(answer.metadata).toEqual({});
      expect(await eventTypes(session.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.canceled', 'identity.verification_session.redacted']);
      const redacted = await stripe.identity.verificationSessions.retrieve(session.id);
      expect(redacted).toEqual({ ...answer, redaction: { status: 'redacted' } });
      expect(account.about(session.id, 'identity.verification_session.redacted')).toEqual([redacted]);
      expect(account.about(session.id, 'identity.verification_session.canceled')).toEqual([answer]);
      // Redacting again changes nothing and sends nothing.
      expect(await stripe.identity.verificationSessions.redact(session.id)).toEqual(redacted);
      expect(await eventTypes(session.id)).toHaveLength(3);
      expect((await fetch(session.url!)).status).toBe(404);
    });

    it('redacts a verified session, which stays verified, and a canceled one', async () => {
      const verified = await createSession();
      await submit(verified.id, 'verified', verified.client_secret);
      expect(await stripe.identity.verificationSessions.redact(verified.id)).toMatchObject({ status: 'verified', metadata: {}, redaction: { status: 'processing' } });
      const redacted = await stripe.identity.verificationSessions.retrieve(verified.id);
      expect({ status: redacted.status, metadata: redacted.metadata, redaction: redacted.redaction }).toEqual({ status: 'verified', metadata: {}, redaction: { status: 'redacted' } });
      expect((await eventTypes(verified.id)).slice(2)).toEqual(['identity.verification_session.verified', 'identity.verification_session.redacted']);

      const canceled = await createSession();
      await stripe.identity.verificationSessions.cancel(canceled.id);
      expect(await stripe.identity.verificationSessions.redact(canceled.id)).toMatchObject({ status: 'canceled', metadata: {}, redaction: { status: 'processing' } });
      expect(await eventTypes(canceled.id)).toEqual(['identity.verification_session.created', 'identity.verification_session.canceled', 'identity.verification_session.redacted']);
    });
  });

  it('lists sessions newest first, filtered by client_reference_id and status, paged', async () => {
    const reference = `lister-${Date.now()}`;
    const [first, second, third] = [await createSession({ client_reference_id: reference }), await createSession({ client_reference_id: reference }), await createSession({ client_reference_id: reference })];
    await submit(second!.id, 'verified', second!.client_secret);
    const ids = async (params: Stripe.Identity.VerificationSessionListParams) => (await stripe.identity.verificationSessions.list({ client_reference_id: reference, ...params })).data.map((session) => session.id);
    expect(await ids({})).toEqual([third!.id, second!.id, first!.id]);
    expect(await ids({ status: 'verified' })).toEqual([second!.id]);
    expect(await ids({ status: 'requires_input' })).toEqual([third!.id, first!.id]);
    const page = await stripe.identity.verificationSessions.list({ client_reference_id: reference, limit: 2 });
    expect({ ids: page.data.map((session) => session.id), has_more: page.has_more, url: page.url }).toEqual({ ids: [third!.id, second!.id], has_more: true, url: '/v1/identity/verification_sessions' });
    expect(await ids({ starting_after: second!.id })).toEqual([first!.id]);
    await expect(stripe.identity.verificationSessions.list({ status: 'approved' })).rejects.toMatchObject({ statusCode: 400, param: 'status' });
  });

  it('settles a submission still processing when the simulator last stopped, once it restarts from its state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-identity-'));
    try {
      const options = { port: 0, ...KEYS, stateFile: join(dir, 'stripe.json'), identityProcessingMs: PROCESSING_MS };
      const first = await startStripeSimulator(options);
      const client = new Stripe(KEYS.secretKey, { host: '127.0.0.1', port: first.port, protocol: 'http', maxNetworkRetries: 0 });
      const session = await client.identity.verificationSessions.create({ type: 'document' });
      const response = await fetch(`${first.url}/identity/${session.id}/verified_async`, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams({ client_secret: session.client_secret! }) });
      expect(((await response.json()) as Session).status).toBe('processing');
      await first.close();
      expect(first.events().map((event) => event.type)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing']);

      const second = await startStripeSimulator(options);
      try {
        expect(second.events().map((event) => event.type)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing']);
        await vi.waitFor(() => expect(second.events().map((event) => event.type)).toEqual(['identity.verification_session.created', 'identity.verification_session.processing', 'identity.verification_session.verified']), settled);
        const reread = new Stripe(KEYS.secretKey, { host: '127.0.0.1', port: second.port, protocol: 'http', maxNetworkRetries: 0 });
        expect((await reread.identity.verificationSessions.retrieve(session.id)).status).toBe('verified');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
