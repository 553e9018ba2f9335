/**
 * Errors in Stripe's shape, `{ error: { type, code?, decline_code?, message, param? } }`, with
 * Stripe's HTTP statuses: the SDK picks its error class from the status (400/404 →
 * StripeInvalidRequestError, or StripeIdempotencyError by type; 401 → StripeAuthenticationError;
 * 402 → StripeCardError), so both must match for the app's error handling to be exercised.
 */
export interface StripeErrorBody {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  /** Card errors name the failed charge and carry the PaymentIntent as it now is. */
  charge?: string;
  payment_intent?: object;
}

type ErrorDetails = Pick<StripeErrorBody, 'code' | 'param'>;

export class StripeApiError extends Error {
  readonly body: StripeErrorBody;

  constructor(
    readonly status: number,
    body: StripeErrorBody,
  ) {
    super(body.message);
    this.body = body.code ? { ...body, doc_url: `https://stripe.com/docs/error-codes/${body.code.replaceAll('_', '-')}` } : body;
  }
}

/**
 * A request refused before the endpoint runs (a missing or malformed parameter). Stripe keeps no
 * idempotent result for these, so a corrected retry with the same key is executed.
 */
export class ParameterError extends StripeApiError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, { type: 'invalid_request_error', message, ...details });
  }
}

export const invalidRequest = (message: string, details: ErrorDetails = {}) => new StripeApiError(400, { type: 'invalid_request_error', message, ...details });

/** 404 for the object a URL names; 400 for one a parameter names (the URL itself exists). */
export const noSuchObject = (kind: string, id: string, param = 'id') =>
  new StripeApiError(param === 'id' ? 404 : 400, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${kind}: '${id}'` });

/** Parameters Stripe accepts but the simulator does not model are refused loudly rather than ignored. */
export const unsupported = (param: string, what: string) => new ParameterError(`The local Stripe simulator does not support ${what}.`, { param });

export const authenticationError = (message: string, code?: string) => new StripeApiError(401, { type: 'invalid_request_error', message, ...(code ? { code } : {}) });

export const secretKeyRequired = () =>
  authenticationError(
    'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
    'secret_key_required',
  );

export const unrecognizedUrl = (method: string, path: string) =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
