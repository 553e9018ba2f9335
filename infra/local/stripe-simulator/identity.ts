import { escapeHtml } from '../../../shared/html.js';
import { page, type PageAnswer } from './onboarding.js';
import { Operation, type EndpointCount } from './operation.js';
import type { StripeEvent, VerificationSessionObject } from './objects.js';
import type { SimulatorStore } from './store.js';
import { settleVerification, submitVerification, type VerificationVerdict } from './verification-sessions.js';

const PAGE_TITLE = 'Stripe test mode — identity verification';

/**
 * The test page's outcomes, by the last segment of the POST's path. Stripe's test mode offers
 * "Verification success" and "Verification failure", each also "async" (processing for a while
 * first); the selfie mismatch and declined consent are the simulator's own, with Stripe's codes.
 */
const OUTCOMES = {
  verified: { verdict: 'verified', async: false, label: 'Verification success', hint: 'The document and selfie are verified: processing, then verified.' },
  verified_async: { verdict: 'verified', async: true, label: 'Verification success async', hint: 'The same, staying processing for a few seconds first.' },
  document_unverified: {
    verdict: 'document_unverified',
    async: false,
    label: 'Verification failure',
    hint: 'The document cannot be verified (document_unverified_other): processing, then back to requires input, to try again.',
  },
  document_unverified_async: { verdict: 'document_unverified', async: true, label: 'Verification failure async', hint: 'The same, staying processing for a few seconds first.' },
  selfie_mismatch: {
    verdict: 'selfie_mismatch',
    async: false,
    label: 'Selfie does not match (simulator only)',
    hint: "The selfie does not match the document's photo (selfie_face_mismatch): processing, then back to requires input.",
  },
  consent_declined: {
    verdict: 'consent_declined',
    async: false,
    label: 'Decline consent (simulator only)',
    hint: 'The user declines to be verified (consent_declined): back to requires input, nothing is processed.',
  },
} as const satisfies Record<string, { verdict: VerificationVerdict; async: boolean; label: string; hint: string }>;

export type VerificationPageOutcome = keyof typeof OUTCOMES;

/**
 * A person's answer on the test page, as the profile's test dialog posts it (JSON back): one of
 * the outcomes for the session, authorised by its client secret. For the demo data and tests.
 */
export function answerVerificationPage(simulatorUrl: string, session: { sessionId: string; clientSecret: string }, outcome: VerificationPageOutcome): Promise<Response> {
  return fetch(`${simulatorUrl}/identity/${encodeURIComponent(session.sessionId)}/${outcome}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: session.clientSecret }),
  });
}

const isOutcome = (name: string | undefined): name is VerificationPageOutcome => name !== undefined && Object.hasOwn(OUTCOMES, name);

/** The selfie outcome exists only where a selfie is asked for. */
const offered = (session: VerificationSessionObject, outcome: VerificationPageOutcome) => outcome !== 'selfie_mismatch' || session.options.document?.require_matching_selfie === true;

/** A page's answer, or JSON for a caller that asked for it (the web app's own dialog, with fetch). */
export interface IdentityPageAnswer extends PageAnswer {
  json?: unknown;
}

export interface IdentityPageRequest {
  method: string;
  path: string;
  /** The query's and (form-encoded) body's parameters. */
  params: URLSearchParams;
  /** The request's Accept header included application/json. */
  wantsJson: boolean;
}

/**
 * The hosted verification page of a VerificationSession (its `url`) in test mode, and the
 * answers of the app's own test dialog (Stripe.js's verifyIdentity modal offers test cases the
 * same way): GET /identity/:id shows the outcomes while the session waits for input; POST
 * /identity/:id/:outcome submits one, authorised by the session's current client secret
 * (`client_secret`, form field or query parameter; each works for one submission). An "async"
 * outcome stays processing for `processingMs` and settles on its own, its events delivered then.
 */
export class IdentityPages {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: SimulatorStore,
    private readonly endpointCount: EndpointCount,
    /** Delivers events created outside a request (an async outcome settling). */
    private readonly deliver: (events: StripeEvent[]) => void,
    private readonly processingMs: number,
  ) {
    // Submissions still processing when the simulator last stopped (a state file) settle when due.
    for (const [id, record] of Object.entries(store.data.verificationSessionRecords)) {
      if (record.pending) this.settleAt(id, record.pending.settlesAt);
    }
  }

  handle({ method, path, params, wantsJson }: IdentityPageRequest): IdentityPageAnswer {
    const [, sessionId = '', outcome] = /^\/identity\/([^/]+)(?:\/([^/]+))?$/.exec(path) ?? [];
    const session = this.store.data.verificationSessions[sessionId];
    const record = this.store.data.verificationSessionRecords[sessionId];
    const waiting = session && record && session.status === 'requires_input' ? { session, record } : undefined;
    if (method === 'GET' && outcome === undefined && waiting) {
      return { status: 200, html: verificationPage(waiting.session, waiting.record.providedDetails?.email), events: [] };
    }
    const clientSecret = params.get('client_secret');
    if (method !== 'POST' || !waiting || !isOutcome(outcome) || !offered(waiting.session, outcome) || !clientSecret || clientSecret !== waiting.session.client_secret) {
      const message = `There is no identity verification waiting for input at this address${method === 'POST' ? ' with this client secret' : ''}.`;
      if (wantsJson) return { status: 404, json: { error: { type: 'invalid_request_error', message } }, events: [] };
      return { status: 404, html: page(PAGE_TITLE, `<p class="badge">Test mode</p>\n<h1>Nothing to verify</h1>\n<p>${message}</p>`), events: [] };
    }

    const { verdict, async } = OUTCOMES[outcome];
    const op = new Operation(this.store, { id: null, idempotency_key: null }, this.endpointCount);
    submitVerification(op, waiting.session, waiting.record, verdict, async);
    if (async) {
      const settlesAt = Date.now() + this.processingMs;
      waiting.record.pending = { verdict, settlesAt };
      this.settleAt(sessionId, settlesAt);
    }
    this.store.save();
    if (wantsJson) {
      const { id, object, status, last_error } = waiting.session;
      return { status: 200, json: { id, object, status, last_error }, events: op.events };
    }
    if (waiting.record.returnUrl) return { status: 303, location: waiting.record.returnUrl, events: op.events };
    return { status: 200, html: page(PAGE_TITLE, '<p class="badge">Test mode</p>\n<h1>Verification submitted</h1>\n<p>Verification submitted. You can close this page.</p>'), events: op.events };
  }

  /** Stops settling (the simulator is closing); a state file keeps what is pending. */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private settleAt(sessionId: string, settlesAt: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        const session = this.store.data.verificationSessions[sessionId];
        const record = this.store.data.verificationSessionRecords[sessionId];
        if (!session || !record?.pending || session.status !== 'processing') return;
        const op = new Operation(this.store, { id: null, idempotency_key: null }, this.endpointCount);
        settleVerification(op, session, record, record.pending.verdict);
        this.store.save();
        this.deliver(op.events);
      },
      Math.max(0, settlesAt - Date.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }
}

function verificationPage(session: VerificationSessionObject, email: string | undefined): string {
  const who = email ? ` of <strong>${escapeHtml(email)}</strong>` : '';
  const checks = session.options.document?.require_matching_selfie ? 'a photo ID and a selfie' : 'a photo ID';
  const retry = session.last_error ? `<p role="status">The last attempt failed: ${escapeHtml(session.last_error.reason)}</p>` : '';
  const buttons = (Object.keys(OUTCOMES) as VerificationPageOutcome[])
    .filter((outcome) => offered(session, outcome))
    .map((outcome, index) => {
      const { label, hint } = OUTCOMES[outcome];
      return `<form method="post" action="/identity/${session.id}/${outcome}"><input type="hidden" name="client_secret" value="${escapeHtml(session.client_secret ?? '')}"><button type="submit" class="${index === 0 ? 'primary' : 'secondary'}" aria-describedby="${outcome}-hint">${escapeHtml(label)}</button></form>
<p class="hint" id="${outcome}-hint">${escapeHtml(hint)}</p>`;
    })
    .join('\n');
  return page(
    PAGE_TITLE,
    `<p class="badge">Test mode</p>
<h1>${PAGE_TITLE}</h1>
<p>Identity verification${who} with ${checks} (session <code>${session.id}</code>). In test mode no document is checked: choose the outcome to submit.</p>
${retry}
${buttons}`,
  );
}
