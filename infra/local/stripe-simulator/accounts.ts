import type Stripe from 'stripe';
import type { ApiCall, Operation } from './operation.js';
import { noSuchObject, ParameterError, unsupported } from './errors.js';
import { newId, nowSeconds, randomToken, type AccountLinkObject, type AccountObject, type CapabilityStatus } from './objects.js';
import type { AccountLinkRecord, SimulatorStore } from './store.js';

/** Capabilities the simulator models; onboarding activates the requested ones. */
const CAPABILITIES = ['card_payments', 'transfers'] as const;

const BUSINESS_TYPES = ['company', 'government_entity', 'individual', 'non_profit'] as const;

/** What Stripe asks a new US Express account for before it can take charges and payouts. */
const ONBOARDING_REQUIREMENTS = [
  'business_profile.mcc',
  'business_profile.url',
  'external_account',
  'individual.address.city',
  'individual.address.line1',
  'individual.address.postal_code',
  'individual.address.state',
  'individual.dob.day',
  'individual.dob.month',
  'individual.dob.year',
  'individual.email',
  'individual.first_name',
  'individual.last_name',
  'individual.phone',
  'individual.ssn_last_4',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

export interface PayoutCard {
  number: string;
  brand: string;
  /** Whether it takes Instant Payouts. */
  instant: boolean;
  /** How every payout to it fails (Stripe's failure code and its description), if it does. */
  payoutFailure?: { code: string; message: string };
}

/**
 * The debit cards onboarding can pay out to: Stripe's Visa debit test card, which takes Instant
 * Payouts; (the simulator's choice) its Mastercard debit test card standing for a card whose
 * bank does not; and its Visa debit test card whose payouts fail with `could_not_process`.
 */
export const PAYOUT_CARDS = {
  instant: { number: '4000056655665556', brand: 'Visa', instant: true },
  standardOnly: { number: '5200828282828210', brand: 'MasterCard', instant: false },
  failing: { number: '4000056655665572', brand: 'Visa', instant: true, payoutFailure: { code: 'could_not_process', message: 'The bank could not process this payout.' } },
} as const satisfies Record<string, PayoutCard>;

/** The test card an external card stands for (the simulator knows them by brand and last four digits). */
export const payoutCardOf = (card: { brand: string; last4: string }): PayoutCard | undefined =>
  Object.values<PayoutCard>(PAYOUT_CARDS).find((candidate) => candidate.brand === card.brand && candidate.number.endsWith(card.last4));

/** Stripe's account links stay valid for a few minutes. */
const ACCOUNT_LINK_LIFETIME_SECONDS = 300;

function requestedCapabilities(call: ApiCall): AccountObject['capabilities'] {
  const requested = call.params.hash('capabilities');
  const capabilities: AccountObject['capabilities'] = {};
  for (const name of Object.keys(requested?.params ?? {})) {
    if (!requested?.hash(name)?.boolean('requested')) continue;
    const known = CAPABILITIES.find((capability) => capability === name);
    if (!known) throw unsupported(`capabilities[${name}]`, `the ${name} capability`);
    capabilities[known] = 'inactive';
  }
  return capabilities;
}

function outstandingRequirements(businessTypeKnown: boolean): Stripe.Account.Requirements {
  const due = businessTypeKnown ? ONBOARDING_REQUIREMENTS : ['business_type', ...ONBOARDING_REQUIREMENTS];
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [...due],
    disabled_reason: 'requirements.past_due',
    errors: [],
    eventually_due: [...due],
    past_due: [...due],
    pending_verification: [],
  };
}

export function findAccount(store: SimulatorStore, id: string, param = 'id'): AccountObject {
  const account = store.data.accounts[id];
  if (!account) throw noSuchObject('account', id, param);
  return account;
}

/** POST /v1/accounts */
export function createAccount(call: ApiCall): AccountObject {
  const { params } = call;
  const type = params.requiredOneOf('type', ['custom', 'express', 'standard']);
  const country = (params.string('country') ?? 'US').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new ParameterError(`Country '${country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'.`, { param: 'country' });
  const businessType = params.oneOf('business_type', BUSINESS_TYPES) ?? null;
  const account: AccountObject = {
    id: newId('acct', 16),
    object: 'account',
    type,
    business_type: businessType,
    capabilities: requestedCapabilities(call),
    charges_enabled: false,
    country,
    created: nowSeconds(),
    default_currency: 'usd',
    details_submitted: false,
    email: params.string('email') ?? null,
    metadata: params.metadata(),
    payouts_enabled: false,
    requirements: outstandingRequirements(businessType !== null),
    // Stripe's US default schedule for standard payouts; Instant Payouts follow the payout card
    // given during onboarding (external_accounts).
    settings: { payouts: { debit_negative_balances: true, schedule: { delay_days: 2, interval: 'daily' }, statement_descriptor: null } },
    external_accounts: { object: 'list', data: [], has_more: false, url: '' },
  };
  account.external_accounts.url = `/v1/accounts/${account.id}/external_accounts`;
  call.op.store.data.accounts[account.id] = account;
  return account;
}

/** GET /v1/accounts/:id */
export const retrieveAccount = (call: ApiCall): AccountObject => findAccount(call.op.store, call.id);

/** POST /v1/accounts/:id — the fields a platform may change on an Express account that the simulator models. */
export function updateAccount(call: ApiCall): AccountObject {
  const account = findAccount(call.op.store, call.id);
  const before = structuredClone(account);
  const { params } = call;
  account.metadata = params.metadata(account.metadata);
  account.email = params.string('email') ?? account.email;
  account.business_type = params.oneOf('business_type', BUSINESS_TYPES) ?? account.business_type;
  if (JSON.stringify(before) !== JSON.stringify(account)) call.op.emit('account.updated', account, before);
  return account;
}

/** POST /v1/account_links: a single-use link to the simulator's onboarding page. */
export function createAccountLink(call: ApiCall): AccountLinkObject {
  const { params } = call;
  const account = findAccount(call.op.store, params.requiredString('account'), 'account');
  const type = params.requiredString('type');
  if (type !== 'account_onboarding') throw unsupported('type', `account links of type '${type}'`);
  const urls = { refresh_url: params.requiredString('refresh_url'), return_url: params.requiredString('return_url') };
  for (const [param, url] of Object.entries(urls)) {
    if (!URL.canParse(url)) throw new ParameterError('Not a valid URL', { code: 'url_invalid', param });
  }
  const created = nowSeconds();
  const link: AccountLinkRecord = { id: randomToken(24), account: account.id, ...urls, created, expires_at: created + ACCOUNT_LINK_LIFETIME_SECONDS, used: false };
  call.op.store.data.accountLinks[link.id] = link;
  return { object: 'account_link', created, expires_at: link.expires_at, url: `${call.baseUrl}/onboarding/${link.id}` };
}

/**
 * The account holder finished Stripe's onboarding: everything is submitted and verified, the
 * requested capabilities turn active. As on Stripe, `charges_enabled` follows the card_payments
 * capability and `payouts_enabled` follows the payout debit card given during onboarding.
 */
export function completeOnboarding(op: Operation, account: AccountObject, payoutCard: PayoutCard): void {
  const before = structuredClone(account);
  account.external_accounts.data = [
    {
      id: newId('card'),
      object: 'card',
      available_payout_methods: payoutCard.instant ? ['standard', 'instant'] : ['standard'],
      brand: payoutCard.brand,
      country: 'US',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      funding: 'debit',
      last4: payoutCard.number.slice(-4),
      metadata: {},
    },
  ];
  const active: CapabilityStatus = 'active';
  account.capabilities = Object.fromEntries(Object.keys(account.capabilities).map((name) => [name, active]));
  account.details_submitted = true;
  account.charges_enabled = account.capabilities.card_payments === 'active';
  account.payouts_enabled = true;
  account.requirements = { ...account.requirements, currently_due: [], eventually_due: [], past_due: [], disabled_reason: null };
  op.emit('account.updated', account, before);
}
