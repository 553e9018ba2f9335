import { MSG } from '../../shared/messages.js';

/** An error whose message is safe and meant for the user; the HTTP layer answers with it. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new HttpError(400, message, fields);
export const unauthorized = (message: string = MSG.auth.authenticationRequired) => new HttpError(401, message);
export const forbidden = (message: string = MSG.backend.accessDenied) => new HttpError(403, message);
export const notFound = (message: string = MSG.backend.notFound) => new HttpError(404, message);
export const conflict = (message: string = MSG.backend.conflict) => new HttpError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, undefined, { 'retry-after': String(retryAfterSeconds) });
