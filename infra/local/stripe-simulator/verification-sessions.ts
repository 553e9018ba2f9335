import type { ApiCall, Operation } from './operation.js';
import { invalidRequest, noSuchObject, ParameterError, unsupported } from './errors.js';
import { findCustomer } from './customers.js';
import { listPage } from './lists.js';
import { newId, nowSeconds, randomToken, type ListObject, type VerificationSessionErrorCode, type VerificationSessionObject, type VerificationSessionStatus } from './objects.js';
import type { ParamReader } from './params.js';
import type { SimulatorStore, VerificationSessionRecord } from './store.js';

/**
 * Stripe Identity's VerificationSessions (issue 47), document checks with or without a matching
 * selfie: create, retrieve, list, cancel and redact, as https://docs.stripe.com/api/identity/verification_sessions
 * documents them. A session waits for input until the user submits on its test-mode page
 * (identity.ts), then is processing, then verified or back to requires_input with `last_error`.
 */

const STATUSES = ['requires_input', 'processing', 'verified', 'canceled'] as const satisfies readonly VerificationSessionStatus[];
const DOCUMENT_TYPES = ['driving_license', 'id_card', 'passport'] as const;

/** Create parameters Stripe accepts that the simulator does not model; refused loudly rather than ignored. */
const UNMODELLED_CREATE_PARAMS: Record<string, string> = {
  verification_flow: 'verification flows from the Dashboard (verification_flow)',
  related_person: 'verifying a Connect Person (related_person)',
  related_customer_account: 'related_customer_account',
};

/** The verdicts of a submission, their `last_error` for the failures (reasons as shown to the user). */
export type VerificationVerdict = 'verified' | 'document_unverified' | 'selfie_mismatch' | 'consent_declined';

export const VERIFICATION_FAILURES: Record<Exclude<VerificationVerdict, 'verified'>, { code: VerificationSessionErrorCode; reason: string }> = {
  document_unverified: { code: 'document_unverified_other', reason: 'The document could not be verified.' },
  selfie_mismatch: { code: 'selfie_face_mismatch', reason: "The selfie did not match the document's photo." },
  consent_declined: { code: 'consent_declined', reason: 'The user declined to be verified.' },
};

export function findVerificationSession(store: SimulatorStore, id: string): { session: VerificationSessionObject; record: VerificationSessionRecord } {
  const session = store.data.verificationSessions[id];
  const record = store.data.verificationSessionRecords[id];
  if (!session || !record) throw noSuchObject('identity.verification_session', id);
  return { session, record };
}

/** Each client secret works for one submission, as Stripe's: a session back in requires_input gets a new one. */
const newClientSecret = (id: string) => `${id}_secret_${randomToken(24)}`;

/** `options[document]`: the document types allowed and whether a matching selfie is asked for, echoed as given. */
function documentOptions(params: ParamReader): VerificationSessionObject['options'] {
  const raw = params.params.options;
  if (raw === undefined || raw === '') return {};
  const options = params.hash('options')!;
  const other = Object.keys(options.params).find((key) => key !== 'document');
  if (other !== undefined) throw unsupported(`options[${other}]`, `options[${other}] (only options[document])`);
  if (options.params.document === undefined || options.params.document === '') return {};
  const document = options.hash('document')!;
  const unmodelled = Object.keys(document.params).find((key) => key !== 'allowed_types' && key !== 'require_matching_selfie');
  if (unmodelled !== undefined) throw unsupported(`options[document][${unmodelled}]`, `options[document][${unmodelled}] (only allowed_types and require_matching_selfie)`);
  const listed = document.hash('allowed_types');
  const allowedTypes = listed && Object.keys(listed.params).sort((a, b) => Number(a) - Number(b)).map((index) => listed.requiredOneOf(index, DOCUMENT_TYPES));
  const selfie = document.boolean('require_matching_selfie');
  return { document: { ...(allowedTypes ? { allowed_types: allowedTypes } : {}), ...(selfie !== undefined ? { require_matching_selfie: selfie } : {}) } };
}

function providedDetails(params: ParamReader): VerificationSessionRecord['providedDetails'] {
  const provided = params.hash('provided_details');
  if (!provided) return null;
  const other = Object.keys(provided.params).find((key) => key !== 'email' && key !== 'phone');
  if (other !== undefined) throw new ParameterError(`Received unknown parameter: provided_details[${other}]`, { code: 'parameter_unknown', param: `provided_details[${other}]` });
  const email = provided.string('email');
  const phone = provided.string('phone');
  return { ...(email !== undefined ? { email } : {}), ...(phone !== undefined ? { phone } : {}) };
}

/** POST /v1/identity/verification_sessions: a document check waiting for input, with its client secret and hosted page. */
export function createVerificationSession(call: ApiCall): VerificationSessionObject {
  const { params, op } = call;
  for (const [param, feature] of Object.entries(UNMODELLED_CREATE_PARAMS)) {
    if (params.params[param] !== undefined) throw unsupported(param, feature);
  }
  const type = params.requiredOneOf('type', ['document', 'id_number']);
  if (type === 'id_number') throw unsupported('type', 'ID number checks (type=id_number); only document checks');
  const options = documentOptions(params);
  const returnUrl = params.string('return_url');
  if (returnUrl !== undefined && !URL.canParse(returnUrl)) throw new ParameterError('Not a valid URL', { code: 'url_invalid', param: 'return_url' });
  const relatedCustomer = params.string('related_customer');
  if (relatedCustomer !== undefined) findCustomer(op.store, relatedCustomer, 'related_customer');
  const details = providedDetails(params);
  const metadata = params.metadata();

  const id = newId('vs');
  const url = `${call.baseUrl}/identity/${id}`;
  const session: VerificationSessionObject = {
    id,
    object: 'identity.verification_session',
    client_reference_id: params.string('client_reference_id') ?? null,
    client_secret: newClientSecret(id),
    created: nowSeconds(),
    last_error: null,
    last_verification_report: null,
    livemode: false,
    metadata,
    options,
    redaction: null,
    related_customer: relatedCustomer ?? null,
    related_customer_account: null,
    status: 'requires_input',
    type: 'document',
    url,
  };
  op.store.data.verificationSessions[id] = session;
  op.store.data.verificationSessionRecords[id] = { url, returnUrl: returnUrl ?? null, providedDetails: details };
  op.emit('identity.verification_session.created', session);
  return session;
}

/** GET /v1/identity/verification_sessions/:id */
export const retrieveVerificationSession = (call: ApiCall): VerificationSessionObject => findVerificationSession(call.op.store, call.id).session;

/** GET /v1/identity/verification_sessions: newest first, filtered by client_reference_id, status, related_customer and created, paged like Stripe's lists. */
export function listVerificationSessions(call: ApiCall): ListObject<VerificationSessionObject> {
  const reference = call.params.string('client_reference_id');
  const status = call.params.oneOf('status', STATUSES);
  const customer = call.params.string('related_customer');
  return listPage(
    call,
    Object.values(call.op.store.data.verificationSessions),
    '/v1/identity/verification_sessions',
    (session) => (reference === undefined || session.client_reference_id === reference) && (status === undefined || session.status === status) && (customer === undefined || session.related_customer === customer),
  );
}

/** Canceled for good: no more submissions, so no client secret or hosted page. */
function cancel(op: Operation, session: VerificationSessionObject): void {
  session.status = 'canceled';
  session.client_secret = null;
  session.url = null;
  op.emit('identity.verification_session.canceled', session);
}

/** POST /v1/identity/verification_sessions/:id/cancel: only while it waits for input (before processing or verified). */
export function cancelVerificationSession(call: ApiCall): VerificationSessionObject {
  const { session } = findVerificationSession(call.op.store, call.id);
  if (session.status !== 'requires_input') {
    throw invalidRequest(`This VerificationSession (${session.id}) has status \`${session.status}\`: only a VerificationSession with status \`requires_input\` can be canceled.`);
  }
  cancel(call.op, session);
  return session;
}

/**
 * POST /v1/identity/verification_sessions/:id/redact. Stripe redacts a session waiting for input
 * (canceling it: identity.verification_session.canceled) or verified, never one processing; the
 * simulator also redacts a canceled one. The answer is Stripe's: `redaction.status` processing,
 * metadata erased. Stripe takes up to four days to finish; the simulator finishes at once:
 * `redacted`, and identity.verification_session.redacted. A session already redacted is answered
 * as it is.
 */
export function redactVerificationSession(call: ApiCall): VerificationSessionObject {
  const { op } = call;
  const { session, record } = findVerificationSession(op.store, call.id);
  if (session.redaction) return session;
  if (session.status === 'processing') {
    throw invalidRequest(`This VerificationSession (${session.id}) has status \`processing\`: it can be redacted once its processing has finished.`);
  }
  session.metadata = {};
  session.redaction = { status: 'processing' };
  record.providedDetails = null;
  if (session.status === 'requires_input') cancel(op, session);
  const answer = structuredClone(session);
  session.redaction = { status: 'redacted' };
  op.emit('identity.verification_session.redacted', session);
  return answer;
}

/** The check failed (or the user declined): waiting for input again, with why and a new client secret. */
function needsInputAgain(op: Operation, session: VerificationSessionObject, record: VerificationSessionRecord, failure: Exclude<VerificationVerdict, 'verified'>): void {
  session.status = 'requires_input';
  session.last_error = { ...VERIFICATION_FAILURES[failure] };
  session.client_secret = newClientSecret(session.id);
  session.url = record.url;
  op.emit('identity.verification_session.requires_input', session);
}

/**
 * The user submits on the test page with one of its outcomes: processing (its event), then the
 * verdict at once, or, with `settleLater`, left processing for the caller to settle. Declining
 * consent submits nothing: back to requires_input without processing.
 */
export function submitVerification(op: Operation, session: VerificationSessionObject, record: VerificationSessionRecord, verdict: VerificationVerdict, settleLater: boolean): void {
  if (verdict === 'consent_declined') {
    needsInputAgain(op, session, record, verdict);
    return;
  }
  session.status = 'processing';
  session.last_error = null;
  session.client_secret = null;
  session.url = null;
  op.emit('identity.verification_session.processing', session);
  if (!settleLater) settleVerification(op, session, record, verdict);
}

/** Processing ends: verified, or requires_input with the failure's last_error. */
export function settleVerification(op: Operation, session: VerificationSessionObject, record: VerificationSessionRecord, verdict: Exclude<VerificationVerdict, 'consent_declined'>): void {
  delete record.pending;
  if (verdict !== 'verified') {
    needsInputAgain(op, session, record, verdict);
    return;
  }
  session.status = 'verified';
  session.last_error = null;
  op.emit('identity.verification_session.verified', session);
}
