import type { ApiCall, Operation } from './operation.js';
import { invalidRequest, noSuchObject, ParameterError, unsupported } from './errors.js';
import { recordBalanceTransaction } from './balance.js';
import { listPage } from './lists.js';
import { newId, nowSeconds, type ChargeObject, type DisputeEvidenceObject, type DisputeObject, type DisputeReason, type EvidenceFileField, type ListObject } from './objects.js';
import type { SimulatorStore } from './store.js';

/** Stripe's US fee for receiving a dispute, taken with the disputed amount when it opens. */
const DISPUTE_FEE = 1500;

/**
 * The business has until due_by to answer: the last second of a UTC day, 7 to 21 days out
 * depending on the card network (docs.stripe.com/disputes/responding). The simulator gives the
 * shortest, the end of the seventh day after opening, the tightest deadline a real dispute has.
 */
const RESPONSE_DAYS = 7;
const DAY_SECONDS = 86_400;
const evidenceDueBy = (created: number) => (Math.floor(created / DAY_SECONDS) + RESPONSE_DAYS + 1) * DAY_SECONDS - 1;

/** Stripe's test-mode evidence (docs.stripe.com/testing#disputes): submitted as `uncategorized_text`, it decides the dispute at once. */
const TEST_OUTCOMES: Record<string, 'won' | 'lost'> = { winning_evidence: 'won', losing_evidence: 'lost' };

/**
 * Each network's reason code for fraud in a card-absent (online) payment, which a `fraudulent`
 * dispute of this marketplace carries (docs.stripe.com/disputes/categories); for the other
 * reasons the code depends on the cardholder's story, so the simulator gives none (null, as Stripe may).
 */
const FRAUD_REASON_CODES: Record<string, string> = { visa: '10.4', mastercard: '4837', amex: 'F29' };

/** What a new dispute's evidence is: nothing given yet. */
const BLANK_EVIDENCE: DisputeEvidenceObject = {
  access_activity_log: null,
  billing_address: null,
  cancellation_policy: null,
  cancellation_policy_disclosure: null,
  cancellation_rebuttal: null,
  customer_communication: null,
  customer_email_address: null,
  customer_name: null,
  customer_purchase_ip: null,
  customer_signature: null,
  duplicate_charge_documentation: null,
  duplicate_charge_explanation: null,
  duplicate_charge_id: null,
  enhanced_evidence: {},
  product_description: null,
  receipt: null,
  refund_policy: null,
  refund_policy_disclosure: null,
  refund_refusal_explanation: null,
  service_date: null,
  service_documentation: null,
  shipping_address: null,
  shipping_carrier: null,
  shipping_date: null,
  shipping_documentation: null,
  shipping_tracking_number: null,
  uncategorized_file: null,
  uncategorized_text: null,
};

type TextEvidenceField = Exclude<keyof DisputeEvidenceObject, EvidenceFileField | 'enhanced_evidence'>;

/** The evidence fields that name a file upload (Stripe's File API, which the simulator does not have). */
const FILE_EVIDENCE: Record<EvidenceFileField, true> = {
  cancellation_policy: true,
  customer_communication: true,
  customer_signature: true,
  duplicate_charge_documentation: true,
  receipt: true,
  refund_policy: true,
  service_documentation: true,
  shipping_documentation: true,
  uncategorized_file: true,
};

/** A charge's dispute: Stripe opens at most one per charge. */
export const disputeOf = (store: SimulatorStore, chargeId: string): DisputeObject | undefined => Object.values(store.data.disputes).find((dispute) => dispute.charge === chargeId);

/**
 * Whether the charge's money is with its cardholder's bank: its dispute is open, or lost. Stripe
 * refuses to refund it then (the money would go back twice); a won dispute gave it back.
 */
export function chargedBack(store: SimulatorStore, chargeId: string): boolean {
  const dispute = disputeOf(store, chargeId);
  return dispute !== undefined && dispute.status !== 'won';
}

/**
 * The cardholder's bank disputes the charge (a chargeback): the disputed amount and Stripe's
 * dispute fee leave the platform's balance at once, as one adjustment, and the charge is marked
 * disputed. The events go to the account's own endpoint: the charge is the platform's.
 */
export function openDispute(op: Operation, charge: ChargeObject, amount: number, reason: DisputeReason): DisputeObject {
  const id = newId('dp');
  const created = nowSeconds();
  const { brand } = charge.payment_method_details.card;
  const withdrawal = recordBalanceTransaction(op.store, { type: 'adjustment', category: 'dispute', amount: -amount, fee: DISPUTE_FEE, source: id, description: `Chargeback withdrawal for ${charge.id}` });
  const dispute: DisputeObject = {
    id,
    object: 'dispute',
    amount,
    balance_transactions: [withdrawal],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: structuredClone(BLANK_EVIDENCE),
    evidence_details: { due_by: evidenceDueBy(created), enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0 },
    // Refunding is how a business answers an inquiry; a chargeback has already returned the money.
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    payment_method_details: {
      type: 'card',
      card: { brand, case_type: 'chargeback', network: brand, network_reason_code: reason === 'fraudulent' ? (FRAUD_REASON_CODES[brand] ?? null) : null },
    },
    reason,
    status: 'needs_response',
  };
  op.store.data.disputes[id] = dispute;
  charge.disputed = true;
  op.emit('charge.dispute.created', dispute);
  op.emit('charge.dispute.funds_withdrawn', dispute);
  return dispute;
}

/**
 * The simulator's test control behind `disputeCharge`: a dispute opened on a succeeded charge at
 * any time after it, as a cardholder's bank opens one, for the charge's unrefunded amount unless
 * an amount is given. Misuse throws, as the simulator's other test controls do.
 */
export function disputeCharge(op: Operation, chargeId: string, options: { amount?: number; reason?: DisputeReason } = {}): DisputeObject {
  const charge = op.store.data.charges[chargeId];
  if (charge?.status !== 'succeeded') throw new Error(`${chargeId} is not a succeeded charge`);
  const existing = disputeOf(op.store, charge.id);
  if (existing) throw new Error(`Charge ${charge.id} already has a dispute (${existing.id}); a charge has at most one`);
  const disputable = charge.amount - charge.amount_refunded;
  if (disputable === 0) throw new Error(`Charge ${charge.id} is fully refunded: its cardholder has nothing to dispute`);
  const amount = options.amount ?? disputable;
  if (!Number.isInteger(amount) || amount < 1 || amount > disputable) {
    throw new RangeError(`amount must be a whole number of cents from 1 to ${disputable} (what is not refunded of ${charge.id}), not ${amount}`);
  }
  return openDispute(op, charge, amount, options.reason ?? 'fraudulent');
}

function findDispute(call: ApiCall): DisputeObject {
  const dispute = call.op.store.data.disputes[call.id];
  if (!dispute) throw noSuchObject('dispute', call.id);
  return dispute;
}

const isClosed = (dispute: DisputeObject) => dispute.status === 'won' || dispute.status === 'lost';

// Stripe refuses both; its docs give no wording, so the messages are the simulator's (the type and status are Stripe's).
const closedDispute = (dispute: DisputeObject) => invalidRequest(`This dispute is already closed (status ${dispute.status}); it can no longer be updated.`);
const alreadySubmitted = () => invalidRequest('The evidence of this dispute has already been submitted; it can no longer be changed.', { param: 'evidence' });

const hasEvidence = (evidence: DisputeEvidenceObject) => Object.values(evidence).some((value) => typeof value === 'string');

/** The `evidence` hash over what the dispute holds: given fields replace theirs, and '' clears one, as Stripe's empty string does. */
function mergedEvidence(call: ApiCall, current: DisputeEvidenceObject): DisputeEvidenceObject {
  const given = call.params.hash('evidence');
  if (!given) return current;
  const evidence = structuredClone(current);
  for (const field of Object.keys(given.params)) {
    const param = `evidence[${field}]`;
    if (Object.hasOwn(FILE_EVIDENCE, field)) throw unsupported(param, 'evidence files (there are no file uploads)');
    if (field === 'enhanced_evidence') throw unsupported(param, 'enhanced evidence (Visa Compelling Evidence 3.0)');
    if (!Object.hasOwn(BLANK_EVIDENCE, field)) throw new ParameterError(`Received unknown parameter: ${param}`, { param });
    evidence[field as TextEvidenceField] = given.string(field) || null;
  }
  return evidence;
}

/**
 * Ends the dispute and tells the account's endpoint. Won, the disputed amount comes back as a
 * second adjustment, without the $15.00 dispute fee: since 17 June 2025 Stripe keeps the fee for
 * receiving a dispute whatever the outcome, and returns on a win only its separate fee for
 * countering one (support.stripe.com/questions/june-2025-pricing-updates-for-disputes), which the
 * simulator does not charge: the API reference does not say how it is booked. Lost, the funds stay withdrawn.
 */
function close(op: Operation, dispute: DisputeObject, status: 'won' | 'lost'): void {
  dispute.status = status;
  op.emit('charge.dispute.closed', dispute);
  if (status === 'lost') return;
  dispute.balance_transactions.push(
    recordBalanceTransaction(op.store, { type: 'adjustment', category: 'dispute_reversal', amount: dispute.amount, source: dispute.id, description: `Chargeback reversal for ${dispute.charge}` }),
  );
  op.emit('charge.dispute.funds_reinstated', dispute);
}

/**
 * POST /v1/disputes/:id: stages evidence (`submit=false`) or submits it (the default) with what
 * was staged before, and sets metadata. Submitted evidence puts the dispute under review, and in
 * test mode the bank answers at once by Stripe's rule: `uncategorized_text` 'winning_evidence'
 * wins it, 'losing_evidence' loses it, anything else leaves it under review. The answer is the
 * dispute as submitted; its outcome follows right after, in the events (Stripe takes a moment).
 */
export function updateDispute(call: ApiCall): DisputeObject {
  const { op, params } = call;
  const dispute = findDispute(call);
  if (isClosed(dispute)) throw closedDispute(dispute);
  if (params.params.evidence !== undefined && dispute.status === 'under_review') throw alreadySubmitted();
  const evidence = mergedEvidence(call, dispute.evidence);
  const metadata = params.metadata(dispute.metadata);
  const submits = (params.boolean('submit') ?? true) && dispute.status === 'needs_response' && hasEvidence(evidence);

  const before = structuredClone(dispute);
  dispute.evidence = evidence;
  dispute.metadata = metadata;
  dispute.evidence_details.has_evidence = hasEvidence(evidence);
  if (submits) {
    dispute.status = 'under_review';
    dispute.evidence_details.submission_count += 1;
  }
  if (JSON.stringify(before) !== JSON.stringify(dispute)) op.emit('charge.dispute.updated', dispute, before);
  const answer = structuredClone(dispute);
  const text = evidence.uncategorized_text;
  if (submits && text !== null && Object.hasOwn(TEST_OUTCOMES, text)) close(op, dispute, TEST_OUTCOMES[text]!);
  return answer;
}

/** POST /v1/disputes/:id/close: the business accepts the dispute, which is lost; the funds stay with the cardholder. */
export function closeDispute(call: ApiCall): DisputeObject {
  const dispute = findDispute(call);
  if (isClosed(dispute)) throw closedDispute(dispute);
  close(call.op, dispute, 'lost');
  return dispute;
}

/** GET /v1/disputes: newest first, filtered by charge, payment_intent and created, paged like Stripe's lists. */
export function listDisputes(call: ApiCall): ListObject<DisputeObject> {
  const charge = call.params.string('charge');
  const intent = call.params.string('payment_intent');
  return listPage(call, Object.values(call.op.store.data.disputes), '/v1/disputes', (dispute) => (charge === undefined || dispute.charge === charge) && (intent === undefined || dispute.payment_intent === intent));
}
