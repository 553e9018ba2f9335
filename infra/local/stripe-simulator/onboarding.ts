import { escapeHtml } from '../../../shared/html.js';
import { completeOnboarding, PAYOUT_CARDS } from './accounts.js';
import { nowSeconds, type AccountObject, type StripeEvent } from './objects.js';
import { Operation, type EndpointCount } from './operation.js';
import type { AccountLinkRecord, SimulatorStore } from './store.js';

export interface PageAnswer {
  status: number;
  html?: string;
  /** For 303 redirects back to the app. */
  location?: string;
  events: StripeEvent[];
}

const PAGE_TITLE = 'Stripe test mode — account onboarding';

/** A simulator page in Stripe's test-mode look (onboarding, 3-D Secure). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937;line-height:1.5}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:.25rem;padding:.1rem .5rem;font-weight:600}
form{margin:1.5rem 0 .25rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:.375rem;border:2px solid #4f46e5;cursor:pointer}
.primary{background:#4f46e5;color:#fff}.secondary{background:#fff;color:#4f46e5}button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.hint{margin:0;color:#4b5563}code{font-size:.95em}</style></head>
<body><main>${body}</main></body></html>`;
}

function onboardingPage(link: AccountLinkRecord, account: AccountObject): string {
  const holder = account.email ? `<strong>${escapeHtml(account.email)}</strong> (account <code>${account.id}</code>)` : `account <code>${account.id}</code>`;
  return page(
    PAGE_TITLE,
    `<p class="badge">Test mode</p>
<h1>${PAGE_TITLE}</h1>
<p>You are setting up payments for ${holder}. This local simulator stands in for Stripe's hosted onboarding: no details are asked for and nothing is sent to Stripe.</p>
<form method="post" action="/onboarding/${link.id}/complete"><button type="submit" class="primary" aria-describedby="complete-hint">Complete setup</button></form>
<p class="hint" id="complete-hint">Verifies the account and turns on its requested capabilities, pays out to the test debit card ${PAYOUT_CARDS.instant.number} (takes Instant Payouts), then returns to the app.</p>
<form method="post" action="/onboarding/${link.id}/complete-without-instant"><button type="submit" class="secondary" aria-describedby="no-instant-hint">Complete setup with a card without Instant Payouts</button></form>
<p class="hint" id="no-instant-hint">The same, paying out to the test debit card ${PAYOUT_CARDS.standardOnly.number}, which takes standard payouts only.</p>
<form method="post" action="/onboarding/${link.id}/complete-failing-payouts"><button type="submit" class="secondary" aria-describedby="failing-hint">Complete setup with a card whose payouts fail</button></form>
<p class="hint" id="failing-hint">The same, paying out to the test debit card ${PAYOUT_CARDS.failing.number}: it takes Instant Payouts, but each one fails (${PAYOUT_CARDS.failing.payoutFailure.code}) and its money returns to the balance.</p>
<form method="post" action="/onboarding/${link.id}/abandon"><button type="submit" class="secondary" aria-describedby="abandon-hint">Leave setup unfinished</button></form>
<p class="hint" id="abandon-hint">Returns to the app with the account still incomplete, as closing Stripe's onboarding early does.</p>`,
  );
}

function unusablePage(reason: string, link?: AccountLinkRecord): string {
  const retry = link ? `<p><a href="${escapeHtml(link.refresh_url)}">Return to the app for a new setup link</a></p>` : '';
  return page('Setup link unavailable — Stripe test mode', `<p class="badge">Test mode</p>\n<h1>This setup link can't be used</h1>\n<p>${reason}</p>${retry}`);
}

/** The payout card each way of finishing onboarding gives the account (the form's action). */
const ONBOARDING_CARDS = {
  complete: PAYOUT_CARDS.instant,
  'complete-without-instant': PAYOUT_CARDS.standardOnly,
  'complete-failing-payouts': PAYOUT_CARDS.failing,
} as const;
export type OnboardingFinish = keyof typeof ONBOARDING_CARDS;

/**
 * The pages behind account links: GET /onboarding/:link shows the choice, POST …/complete finishes
 * onboarding (account.updated, back to return_url; …/complete-without-instant with a payout card
 * that takes no Instant Payouts, …/complete-failing-payouts with one whose payouts fail) and POST …/abandon leaves it unfinished (no
 * change, back to refresh_url, where the app asks for a new link). Links are single-use; expiry is
 * checked when the page opens, not when its form is posted, as a started onboarding session runs on.
 */
export class OnboardingPages {
  constructor(
    private readonly store: SimulatorStore,
    private readonly endpointCount: EndpointCount,
  ) {}

  handle(method: string, path: string): PageAnswer {
    const [, linkId = '', action] = /^\/onboarding\/([^/]+)(?:\/(complete|complete-without-instant|complete-failing-payouts|abandon))?$/.exec(path) ?? [];
    const link = this.store.data.accountLinks[linkId];
    const account = link && this.store.data.accounts[link.account];
    if (!link || !account || method !== (action ? 'POST' : 'GET')) {
      return { status: 404, html: unusablePage('There is no setup link at this address.'), events: [] };
    }
    if (link.used) return { status: 410, html: unusablePage('It has already been used. Each setup link works once.', link), events: [] };
    if (!action) {
      if (link.expires_at < nowSeconds()) return { status: 410, html: unusablePage('It has expired. Setup links are valid for a few minutes.', link), events: [] };
      return { status: 200, html: onboardingPage(link, account), events: [] };
    }
    const op = new Operation(this.store, { id: null, idempotency_key: null }, this.endpointCount);
    link.used = true;
    if (action !== 'abandon') completeOnboarding(op, account, ONBOARDING_CARDS[action as OnboardingFinish]);
    this.store.save();
    return { status: 303, location: action === 'abandon' ? link.refresh_url : link.return_url, events: op.events };
  }
}
