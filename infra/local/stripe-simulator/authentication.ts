import { escapeHtml } from '../../../shared/html.js';
import { page, type PageAnswer } from './onboarding.js';
import { Operation, type EndpointCount } from './operation.js';
import { answerAuthentication } from './payment-intents.js';
import type { SimulatorStore } from './store.js';

const PAGE_TITLE = 'Stripe test mode — 3D Secure authentication';

/**
 * The bank's 3-D Secure challenge of a PaymentIntent in requires_action (Stripe's test page
 * offers the same two answers): GET /authenticate/:intent shows it, POST …/complete or …/fail
 * answers it. A redirect_to_url action goes back to its return_url; the card form that opened
 * it itself (use_stripe_sdk) reads the intent again.
 */
export class AuthenticationPages {
  constructor(
    private readonly store: SimulatorStore,
    private readonly endpointCount: EndpointCount,
  ) {}

  handle(method: string, path: string): PageAnswer {
    const [, intentId = '', action] = /^\/authenticate\/([^/]+)(?:\/(complete|fail))?$/.exec(path) ?? [];
    const intent = this.store.data.paymentIntents[intentId];
    if (!intent || method !== (action ? 'POST' : 'GET') || intent.status !== 'requires_action') {
      return { status: 404, html: page(PAGE_TITLE, '<h1>Nothing to authenticate</h1><p>This payment is not waiting for authentication.</p>'), events: [] };
    }
    const returnUrl = intent.next_action?.type === 'redirect_to_url' ? intent.next_action.redirect_to_url.return_url : undefined;
    if (!action) {
      const amount = `$${(intent.amount / 100).toFixed(2)}`;
      return {
        status: 200,
        html: page(
          PAGE_TITLE,
          `<p class="badge">Test mode</p>
<h1>${PAGE_TITLE}</h1>
<p>Your bank asks you to confirm a payment of <strong>${escapeHtml(amount)}</strong>.</p>
<form method="post" action="/authenticate/${intent.id}/complete"><button type="submit" class="primary">Complete authentication</button></form>
<form method="post" action="/authenticate/${intent.id}/fail"><button type="submit" class="secondary">Fail authentication</button></form>`,
        ),
        events: [],
      };
    }
    const op = new Operation(this.store, { id: null, idempotency_key: null }, this.endpointCount);
    answerAuthentication(op, intent, action === 'complete');
    this.store.save();
    if (returnUrl) {
      const back = new URL(returnUrl);
      back.searchParams.set('payment_intent', intent.id);
      back.searchParams.set('payment_intent_client_secret', intent.client_secret);
      return { status: 303, location: back.toString(), events: op.events };
    }
    return { status: 200, html: page(PAGE_TITLE, '<h1>Authentication answered</h1><p>You can close this page.</p>'), events: op.events };
  }
}
