import type { ApiError } from '../../../../shared/api';
import { MSG, signInErrorText } from '../../../../shared/messages';
import { takeEarlyRead } from './early-reads';
import { apiRequestHeaders } from './request-headers';

/**
 * A failed API call: the HTTP status (0 when the server was not reached), the server's text and
 * field errors, and when the server asked to be asked again (Retry-After of a 503 or 429).
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export type QueryParams = Record<string, string | number | null | undefined>;

export interface ApiClient {
  get<T>(path: string, query?: QueryParams): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  /** A body only where the route reads one (the admin's reason for deleting a job). */
  delete<T>(path: string, body?: unknown): Promise<T>;
}

/** Resolves the caller's Cognito ID token, or null when signed out. */
export type IdTokenSource = () => Promise<string | null>;

// The server always answers `{ error }`; these cover answers from the gateway itself.
const STATUS_FALLBACK_TEXT: Record<number, string> = {
  401: MSG.auth.authenticationRequired,
  403: MSG.backend.accessDenied,
  404: MSG.backend.notFound,
  408: MSG.backend.timeout,
  504: MSG.backend.timeout,
};

// The spec's network text lives in the sign-in table; it is the one text for "server not reached".
const NETWORK_ERROR_TEXT = signInErrorText('network');

function isApiError(body: unknown): body is ApiError {
  return typeof body === 'object' && body !== null && typeof (body as ApiError).error === 'string';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds (the server sends seconds, never a date), if it is there. */
function retryAfterOf(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after') ?? NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function toRequestError(response: Response, body: unknown): ApiRequestError {
  const { status } = response;
  if (isApiError(body)) return new ApiRequestError(status, body.error, body.fields ?? {}, retryAfterOf(response));
  return new ApiRequestError(status, STATUS_FALLBACK_TEXT[status] ?? MSG.backend.unexpected, {}, retryAfterOf(response));
}

/** The one HTTP client of the app: JSON in and out, the bearer token when signed in. */
export function createApiClient(baseUrl: string, idToken: IdTokenSource): ApiClient {
  async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, query?: QueryParams, body?: unknown): Promise<T> {
    const url = new URL(`${baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
    }
    const token = await idToken();
    // A GET the early entry already sent as this request (lib/api/early-reads.ts) is adopted, not sent again.
    const early = method === 'GET' ? takeEarlyRead(url.href, token) : null;

    let response: Response;
    try {
      response = await (early ??
        fetch(url, { method, headers: apiRequestHeaders(token, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) }));
    } catch {
      throw new ApiRequestError(0, NETWORK_ERROR_TEXT);
    }
    const payload = await readJson(response);
    if (!response.ok) throw toRequestError(response, payload);
    return payload as T;
  }

  return {
    get: (path, query) => request('GET', path, query),
    post: (path, body) => request('POST', path, undefined, body),
    put: (path, body) => request('PUT', path, undefined, body),
    patch: (path, body) => request('PATCH', path, undefined, body),
    delete: (path, body) => request('DELETE', path, undefined, body),
  };
}

/** The text to show for a failed call: the server's own words (or the network text), else the screen's fallback. */
export function apiErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError ? error.message : fallback;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}
