import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  AccountObject,
  BalanceTransactionObject,
  ChargeObject,
  CustomerObject,
  DisputeObject,
  PayoutObject,
  PaymentIntentObject,
  RefundObject,
  SavedPaymentMethod,
  StripeEvent,
  StripeObject,
  TransferObject,
  TransferReversalObject,
  VerificationSessionObject,
} from './objects.js';

/** An account link is not retrievable through the API; this is what its onboarding page needs. */
export interface AccountLinkRecord {
  id: string;
  account: string;
  refresh_url: string;
  return_url: string;
  created: number;
  expires_at: number;
  used: boolean;
}

/** What the simulator keeps of a VerificationSession beside the object Stripe returns. */
export interface VerificationSessionRecord {
  /** The hosted page of the session (its `url` while it waits for input). */
  url: string;
  /** Where the hosted page sends the user back to once they submit (create's `return_url`; Stripe does not return it). */
  returnUrl: string | null;
  /** `provided_details` as given on create (Stripe returns it only when expanded; the test page shows it). Erased by redaction. */
  providedDetails: { email?: string; phone?: string } | null;
  /** A submission still `processing` (the test page's "async" choices): the verdict it settles with, and when (epoch ms). */
  pending?: { verdict: 'verified' | 'document_unverified'; settlesAt: number };
}

/** The answer to a request made with an idempotency key, replayed for 24 hours like Stripe does. */
export interface StoredResponse {
  endpoint: string;
  paramsDigest: string;
  status: number;
  body: unknown;
  requestId: string;
  storedAt: number;
}

export interface SimulatorData {
  accounts: Record<string, AccountObject>;
  accountLinks: Record<string, AccountLinkRecord>;
  customers: Record<string, CustomerObject>;
  paymentMethods: Record<string, SavedPaymentMethod>;
  paymentIntents: Record<string, PaymentIntentObject>;
  charges: Record<string, ChargeObject>;
  balanceTransactions: Record<string, BalanceTransactionObject>;
  refunds: Record<string, RefundObject>;
  transfers: Record<string, TransferObject>;
  transferReversals: Record<string, TransferReversalObject>;
  payouts: Record<string, PayoutObject>;
  disputes: Record<string, DisputeObject>;
  verificationSessions: Record<string, VerificationSessionObject>;
  verificationSessionRecords: Record<string, VerificationSessionRecord>;
  /**
   * The connected account each of its own objects belongs to (payouts and their balance
   * transactions, made with the Stripe-Account header); objects not listed are the platform's.
   */
  ownerAccounts: Record<string, string>;
  /** Oldest first. */
  events: StripeEvent[];
  /** Keyed by API key and idempotency key. */
  idempotentResponses: Record<string, StoredResponse>;
}

/** How long Stripe keeps an event retrievable: 30 days. */
export const EVENT_RETENTION_SECONDS = 30 * 86_400;

/**
 * A collection keyed by ids that callers send: without a prototype, so an id such as
 * 'toString' or '__proto__' is an unknown object (404, as at Stripe), never an inherited one.
 */
const byId = <T>(entries: Record<string, T> = {}): Record<string, T> => Object.assign(Object.create(null) as Record<string, T>, entries);

const emptyData = (loaded: Partial<SimulatorData> = {}): SimulatorData => ({
  accounts: byId(loaded.accounts),
  accountLinks: byId(loaded.accountLinks),
  customers: byId(loaded.customers),
  paymentMethods: byId(loaded.paymentMethods),
  paymentIntents: byId(loaded.paymentIntents),
  // A state file from before disputes has charges without `disputed`: none of them was.
  charges: byId(Object.fromEntries(Object.entries(loaded.charges ?? {}).map(([id, charge]) => [id, { ...charge, disputed: charge.disputed === true }]))),
  balanceTransactions: byId(loaded.balanceTransactions),
  refunds: byId(loaded.refunds),
  transfers: byId(loaded.transfers),
  transferReversals: byId(loaded.transferReversals),
  payouts: byId(loaded.payouts),
  disputes: byId(loaded.disputes),
  verificationSessions: byId(loaded.verificationSessions),
  verificationSessionRecords: byId(loaded.verificationSessionRecords),
  ownerAccounts: byId(loaded.ownerAccounts),
  events: loaded.events ?? [],
  idempotentResponses: byId(loaded.idempotentResponses),
});

type ObjectCollection = 'accounts' | 'customers' | 'paymentIntents' | 'charges' | 'balanceTransactions' | 'refunds' | 'transfers' | 'transferReversals' | 'payouts' | 'disputes' | 'verificationSessions';

/** Where an id's object lives, by Stripe's id prefix (what expansion needs to follow a reference). */
const COLLECTION_BY_PREFIX: Record<string, ObjectCollection> = {
  acct: 'accounts',
  cus: 'customers',
  pi: 'paymentIntents',
  ch: 'charges',
  txn: 'balanceTransactions',
  re: 'refunds',
  tr: 'transfers',
  trr: 'transferReversals',
  po: 'payouts',
  dp: 'disputes',
  vs: 'verificationSessions',
};

/**
 * How long after a change the state file is written: every write is the whole state, which
 * grows with each object and event, so a burst of changes (a job's payment, its webhooks' replies)
 * is written once. A dev stack killed outright loses at most this much.
 */
const SAVE_DELAY_MS = 100;

/** Everything the simulator knows, in memory, optionally mirrored to a JSON file shortly after each change. */
export class SimulatorStore {
  readonly data: SimulatorData;
  private pendingSave: NodeJS.Timeout | undefined;

  constructor(private readonly file?: string) {
    this.data = emptyData(file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<SimulatorData>) : {});
  }

  /** Marks the state changed: it is written within SAVE_DELAY_MS, with whatever else changed meanwhile. */
  save(): void {
    if (!this.file || this.pendingSave) return;
    this.pendingSave = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    this.pendingSave.unref();
  }

  /** Writes a pending change now (the simulator's close). Written to a temporary file first, so a dev server killed mid-write never leaves half a file. */
  flush(): void {
    if (!this.pendingSave || !this.file) return;
    clearTimeout(this.pendingSave);
    this.pendingSave = undefined;
    mkdirSync(dirname(this.file), { recursive: true });
    const partial = `${this.file}.partial`;
    writeFileSync(partial, JSON.stringify(this.data));
    renameSync(partial, this.file);
  }

  /**
   * Records an event, and lets go of those older than Stripe keeps them (30 days: the Events API
   * lists and retrieves only those), so a dev server running for weeks holds a month at most.
   */
  recordEvent(event: StripeEvent): void {
    const events = this.data.events;
    events.push(event);
    const oldest = event.created - EVENT_RETENTION_SECONDS;
    const expired = events.findIndex((candidate) => candidate.created >= oldest);
    if (expired > 0) events.splice(0, expired);
  }

  find(id: string): StripeObject | undefined {
    const prefix = id.slice(0, id.indexOf('_'));
    const collection = Object.hasOwn(COLLECTION_BY_PREFIX, prefix) ? COLLECTION_BY_PREFIX[prefix] : undefined;
    return collection ? this.data[collection][id] : undefined;
  }
}
