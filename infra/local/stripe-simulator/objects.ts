import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/**
 * The Stripe objects the simulator keeps, field for field as the API returns them (unexpanded:
 * related objects are ids). Each shape is checked at compile time against the SDK's own type, so
 * a field we emit cannot drift in name or value type from the API version the SDK speaks; `Loose`
 * names nested objects we fill only in part.
 */
type Conforming<Ours extends Pick<Theirs, Exclude<keyof Ours & keyof Theirs, Loose>>, Theirs, Loose extends keyof Ours = never> = Ours;

export type CapabilityStatus = 'active' | 'inactive' | 'pending';

export type AccountObject = Conforming<
  {
    id: string;
    object: 'account';
    type: 'custom' | 'express' | 'standard';
    business_type: 'company' | 'government_entity' | 'individual' | 'non_profit' | null;
    capabilities: { card_payments?: CapabilityStatus; transfers?: CapabilityStatus };
    charges_enabled: boolean;
    country: string;
    created: number;
    default_currency: string;
    details_submitted: boolean;
    email: string | null;
    metadata: Stripe.Metadata;
    payouts_enabled: boolean;
    requirements: Stripe.Account.Requirements;
    settings: { payouts: Stripe.Account.Settings.Payouts };
    /** Where payouts go: the debit card given during onboarding (none before). */
    external_accounts: ListObject<ExternalCardObject>;
  },
  Stripe.Account,
  'settings' | 'external_accounts'
>;

/**
 * A debit card an account is paid out to. `available_payout_methods` says whether it takes
 * Instant Payouts (['standard', 'instant']) or not (['standard']), as Stripe reports it.
 */
export type ExternalCardObject = Conforming<
  {
    id: string;
    object: 'card';
    available_payout_methods: ('instant' | 'standard')[];
    brand: string;
    country: string;
    exp_month: number;
    exp_year: number;
    funding: 'debit';
    last4: string;
    metadata: Stripe.Metadata;
  },
  Stripe.Card
>;

export type PayoutObject = Conforming<
  {
    id: string;
    object: 'payout';
    amount: number;
    arrival_date: number;
    automatic: boolean;
    balance_transaction: string;
    created: number;
    currency: string;
    description: string | null;
    destination: string;
    livemode: false;
    metadata: Stripe.Metadata;
    method: 'instant' | 'standard';
    source_type: 'card';
    statement_descriptor: string | null;
    status: 'pending' | 'paid' | 'failed';
    /** Set when it failed: the reversal that put the funds back, and Stripe's code and reason. */
    failure_balance_transaction: string | null;
    failure_code: string | null;
    failure_message: string | null;
    type: 'card';
  },
  Stripe.Payout
>;

/** What the simulator produces: no manual capture, and the one next action is a card's 3-D Secure, so no other states. */
export type PaymentIntentStatus = 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';

/**
 * A card's 3-D Secure challenge: a redirect when the confirmation gave a return_url, otherwise
 * the `use_stripe_sdk` action that Stripe.js (here, the simulator's card form) opens itself.
 */
export type NextActionObject =
  | { type: 'redirect_to_url'; redirect_to_url: { return_url: string; url: string } }
  | { type: 'use_stripe_sdk'; use_stripe_sdk: { type: 'three_d_secure_redirect'; stripe_js: string; source: string } };

export type PaymentIntentObject = Conforming<
  {
    id: string;
    object: 'payment_intent';
    amount: number;
    amount_capturable: number;
    amount_received: number;
    automatic_payment_methods: { enabled: boolean; allow_redirects?: 'always' } | null;
    canceled_at: number | null;
    cancellation_reason: 'abandoned' | 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
    capture_method: 'automatic' | 'automatic_async';
    client_secret: string;
    confirmation_method: 'automatic';
    created: number;
    currency: string;
    customer: string | null;
    description: string | null;
    last_payment_error: Stripe.PaymentIntent.LastPaymentError | null;
    latest_charge: string | null;
    livemode: false;
    metadata: Stripe.Metadata;
    next_action: NextActionObject | null;
    payment_method: string | null;
    payment_method_types: string[];
    receipt_email: string | null;
    setup_future_usage: 'off_session' | 'on_session' | null;
    status: PaymentIntentStatus;
    transfer_group: string | null;
  },
  Stripe.PaymentIntent,
  'next_action'
>;

export type CustomerObject = Conforming<
  {
    id: string;
    object: 'customer';
    balance: number;
    created: number;
    currency: string | null;
    default_source: null;
    delinquent: boolean;
    description: string | null;
    email: string | null;
    invoice_prefix: string;
    livemode: false;
    metadata: Stripe.Metadata;
    name: string | null;
    phone: string | null;
    preferred_locales: string[];
    tax_exempt: 'none';
  },
  Stripe.Customer
>;

/**
 * A card PaymentMethod as the simulator keeps it (not retrievable through its API): the card it
 * stands for and, once a payment saved it for later (setup_future_usage), its customer.
 */
export interface SavedPaymentMethod {
  id: string;
  /** The test card number, which decides how later payments with it behave. */
  number: string;
  customer: string | null;
  /** A PaymentMethod used once without a customer may not be used again, as on Stripe. */
  used: boolean;
}

/** Every test card the simulator knows has a brand (Stripe's may be null). */
export type CardDetails = Pick<Stripe.Charge.PaymentMethodDetails.Card, 'country' | 'exp_month' | 'exp_year' | 'funding' | 'last4'> & { brand: string };

export type ChargeObject = Conforming<
  {
    id: string;
    object: 'charge';
    amount: number;
    amount_captured: number;
    amount_refunded: number;
    balance_transaction: string | null;
    captured: boolean;
    created: number;
    currency: string;
    description: string | null;
    /** Set for good once a dispute is opened on it, whatever the dispute's outcome (Stripe's `disputed`). */
    disputed: boolean;
    failure_code: string | null;
    failure_message: string | null;
    livemode: false;
    metadata: Stripe.Metadata;
    outcome: Stripe.Charge.Outcome;
    paid: boolean;
    payment_intent: string;
    payment_method: string;
    payment_method_details: { type: 'card'; card: CardDetails };
    refunded: boolean;
    status: 'succeeded' | 'failed';
    transfer_group: string | null;
  },
  Stripe.Charge,
  'payment_method_details'
>;

export type BalanceTransactionType = 'adjustment' | 'charge' | 'refund' | 'transfer' | 'transfer_refund' | 'payment' | 'payout' | 'payout_failure';

/** What an `adjustment` is: the funds a dispute withdrew, or their reinstatement when it was won. */
export type AdjustmentCategory = 'dispute' | 'dispute_reversal';

/** Stripe's accounting category of a balance transaction: its type's, except a transfer reversal's and an adjustment's. */
export type ReportingCategory = Exclude<BalanceTransactionType, 'adjustment' | 'transfer_refund'> | 'transfer_reversal' | AdjustmentCategory;

export type BalanceTransactionObject = Conforming<
  {
    id: string;
    object: 'balance_transaction';
    amount: number;
    available_on: number;
    created: number;
    currency: string;
    description: string | null;
    fee: number;
    fee_details: Stripe.BalanceTransaction.FeeDetail[];
    net: number;
    reporting_category: ReportingCategory;
    source: string;
    status: 'available';
    type: BalanceTransactionType;
  },
  Stripe.BalanceTransaction
>;

export type RefundReason = 'duplicate' | 'fraudulent' | 'requested_by_customer';

export type RefundObject = Conforming<
  {
    id: string;
    object: 'refund';
    amount: number;
    balance_transaction: string;
    charge: string;
    created: number;
    currency: string;
    metadata: Stripe.Metadata;
    payment_intent: string;
    reason: RefundReason | null;
    status: 'succeeded';
  },
  Stripe.Refund
>;

export type TransferObject = Conforming<
  {
    id: string;
    object: 'transfer';
    amount: number;
    amount_reversed: number;
    balance_transaction: string;
    created: number;
    currency: string;
    description: string | null;
    destination: string;
    destination_payment: string;
    livemode: false;
    metadata: Stripe.Metadata;
    /** The newest reversals (up to ten, as Stripe embeds them); `GET /v1/transfers/:id/reversals` pages through all. */
    reversals: ListObject<TransferReversalObject>;
    reversed: boolean;
    source_transaction: string | null;
    source_type: 'card';
    transfer_group: string | null;
  },
  Stripe.Transfer
>;

export type TransferReversalObject = Conforming<
  {
    id: string;
    object: 'transfer_reversal';
    amount: number;
    balance_transaction: string;
    created: number;
    currency: string;
    destination_payment_refund: null;
    metadata: Stripe.Metadata;
    source_refund: null;
    transfer: string;
  },
  Stripe.TransferReversal
>;

/** Stripe's reasons a cardholder gives for a dispute. */
export type DisputeReason =
  | 'bank_cannot_process'
  | 'check_returned'
  | 'credit_not_processed'
  | 'customer_initiated'
  | 'debit_not_authorized'
  | 'duplicate'
  | 'fraudulent'
  | 'general'
  | 'incorrect_account_details'
  | 'insufficient_funds'
  | 'noncompliant'
  | 'product_not_received'
  | 'product_unacceptable'
  | 'subscription_canceled'
  | 'unrecognized';

/** A chargeback's statuses (inquiries, `warning_*`, are not modelled): open, then won or lost. */
export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

/** The evidence fields that take a file upload's id; the simulator has no file uploads, so they stay null. */
export type EvidenceFileField =
  | 'cancellation_policy'
  | 'customer_communication'
  | 'customer_signature'
  | 'duplicate_charge_documentation'
  | 'receipt'
  | 'refund_policy'
  | 'service_documentation'
  | 'shipping_documentation'
  | 'uncategorized_file';

export type DisputeEvidenceObject = Omit<Stripe.Dispute.Evidence, 'appeal' | EvidenceFileField> & { [Field in EvidenceFileField]: null };

export type DisputeObject = Conforming<
  {
    id: string;
    object: 'dispute';
    amount: number;
    /** The funds it withdrew, then (if won) the funds reinstated, each embedded whole as Stripe embeds them. */
    balance_transactions: BalanceTransactionObject[];
    charge: string;
    created: number;
    currency: string;
    enhanced_eligibility_types: Stripe.Dispute.EnhancedEligibilityType[];
    evidence: DisputeEvidenceObject;
    evidence_details: Omit<Stripe.Dispute.EvidenceDetails, 'submission_method'>;
    is_charge_refundable: boolean;
    livemode: false;
    metadata: Stripe.Metadata;
    payment_intent: string;
    payment_method_details: { type: 'card'; card: Stripe.Dispute.PaymentMethodDetails.Card };
    reason: DisputeReason;
    status: DisputeStatus;
  },
  Stripe.Dispute,
  'balance_transactions' | 'evidence_details'
>;

/** What the simulator answers: the four statuses of a document check, its codes of failure, and a redaction done or under way. */
export type VerificationSessionStatus = 'requires_input' | 'processing' | 'verified' | 'canceled';

export type VerificationSessionErrorCode = 'consent_declined' | 'document_unverified_other' | 'selfie_face_mismatch';

/**
 * Stripe Identity's VerificationSession of a document check (issue 47). `client_secret` and `url`
 * are set only while it is `requires_input`, as Stripe returns them; `last_error` and `redaction`
 * are null when there is none, as in Stripe's own examples. No VerificationReport is modelled,
 * so `last_verification_report` stays null.
 */
export type VerificationSessionObject = Conforming<
  {
    id: string;
    object: 'identity.verification_session';
    client_reference_id: string | null;
    client_secret: string | null;
    created: number;
    last_error: { code: VerificationSessionErrorCode; reason: string } | null;
    last_verification_report: null;
    livemode: false;
    metadata: Stripe.Metadata;
    options: { document?: { allowed_types?: ('driving_license' | 'id_card' | 'passport')[]; require_matching_selfie?: boolean } };
    redaction: { status: 'processing' | 'redacted' } | null;
    related_customer: string | null;
    related_customer_account: null;
    status: VerificationSessionStatus;
    type: 'document';
    url: string | null;
  },
  Stripe.Identity.VerificationSession
>;

export type StripeObject =
  | TransferReversalObject
  | PayoutObject
  | AccountObject
  | CustomerObject
  | PaymentIntentObject
  | ChargeObject
  | BalanceTransactionObject
  | RefundObject
  | TransferObject
  | DisputeObject
  | VerificationSessionObject;

export type ListObject<Item> = {
  object: 'list';
  data: Item[];
  has_more: boolean;
  url: string;
};

export type AccountLinkObject = Conforming<{ object: 'account_link'; created: number; expires_at: number; url: string }, Stripe.AccountLink>;

/** Any JSON object the API answers with. */
export type JsonObject = { [field: string]: unknown };

export type EventType =
  | 'account.updated'
  | 'charge.dispute.closed'
  | 'charge.dispute.created'
  | 'charge.dispute.funds_reinstated'
  | 'charge.dispute.funds_withdrawn'
  | 'charge.dispute.updated'
  | 'charge.failed'
  | 'charge.refunded'
  | 'charge.succeeded'
  | 'customer.created'
  | 'identity.verification_session.canceled'
  | 'identity.verification_session.created'
  | 'identity.verification_session.processing'
  | 'identity.verification_session.redacted'
  | 'identity.verification_session.requires_input'
  | 'identity.verification_session.verified'
  | 'payment_intent.canceled'
  | 'payment_intent.created'
  | 'payment_intent.payment_failed'
  | 'payment_intent.requires_action'
  | 'payment_intent.succeeded'
  | 'payout.created'
  | 'payout.failed'
  | 'payout.paid'
  | 'refund.created'
  | 'transfer.created'
  | 'transfer.reversed';

export type StripeEvent = Conforming<
  {
    id: string;
    object: 'event';
    /** Set on events about a connected account, as Stripe sends them to Connect endpoints. */
    account?: string;
    api_version: string;
    created: number;
    data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
    livemode: false;
    pending_webhooks: number;
    request: Stripe.Event.Request;
    type: EventType;
  },
  Stripe.EventBase,
  'data'
>;

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random alphanumerics, as in Stripe's ids (`pi_3Pq…`) and client secrets. */
export function randomToken(length: number): string {
  return [...randomBytes(length)].map((byte) => ID_ALPHABET.charAt(byte % ID_ALPHABET.length)).join('');
}

/** Stripe's ids: a type prefix and random characters (16 for accounts, 24 for most objects). */
export const newId = (prefix: string, length = 24) => `${prefix}_${randomToken(length)}`;

/** Stripe timestamps are epoch seconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);
