import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type * as z from '../../shared/zod.js';
import { DEFAULT_SECRET_MAX_AGE_SECONDS } from '../routes.js';
import { optionalEnv } from './env.js';
import { HttpError } from './errors.js';
import { logger } from './logger.js';

export interface SecretJson<S extends z.ZodMiniType> {
  /** What the keys are, for the logs ("Stripe keys"). */
  readonly name: string;
  readonly schema: S;
  /** The secret's ARN; unset where the local stack gives the keys as a variable instead. */
  readonly secretArn: () => string | undefined;
  /** Locally, the JSON that the local stack's variables give in place of the secret, if it gives no secret. */
  readonly localJson?: () => string | undefined;
  /** The error callers answer while the keys cannot be read (a 503 of their own words). */
  readonly unavailable: () => HttpError;
}

/** How long keys read are used before they are read again (routes.ts DEFAULT_SECRET_MAX_AGE_SECONDS). */
const secretMaxAgeMs = () => Number(optionalEnv('secretMaxAgeSeconds') ?? DEFAULT_SECRET_MAX_AGE_SECONDS) * 1000;

/** The keys' reader: the keys, read again once they are too old or when `readAgain` was called. */
export type SecretAccessor<T> = (() => Promise<T>) & {
  /** Reads the secret again on the next call, whatever its age: the service refused the keys (rotated away). */
  readAgain(): void;
};

/**
 * Keys kept as one JSON Secrets Manager secret that the operator fills after the first deploy
 * (docs/deploy.md), read again once its maximum age (SECRET_MAX_AGE_SECONDS) has passed since the last good read.
 * A failed first read is not kept: the next call reads again, so a secret filled in later or a
 * passing Secrets Manager error heals without recycling the function; a failed later read
 * keeps the last keys (a rotation leaves the old ones valid for a while) and is tried again on
 * the next call. A secret not filled in yet (the deploy stores a random placeholder) or not
 * valid, and every failure with no keys read before, throws `unavailable()`.
 */
export function secretJson<S extends z.ZodMiniType>(declaration: SecretJson<S>): SecretAccessor<z.output<S>> {
  const { name, schema, secretArn, localJson, unavailable } = declaration;
  async function load(): Promise<z.output<S>> {
    const arn = secretArn();
    const raw = arn ? (await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }))).SecretString : localJson?.();
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw ?? '');
    } catch {
      parsed = undefined;
    }
    const value = schema.safeParse(parsed);
    if (!value.success) {
      logger.error(`${name} are not set: fill the secret as docs/deploy.md describes`, { fields: value.error.issues.map((issue) => issue.path.join('.')) });
      throw unavailable();
    }
    return value.data;
  }
  let current: { value: z.output<S>; readAt: number } | undefined;
  let reading: Promise<z.output<S>> | undefined;
  const read = () => {
    if (reading) return reading;
    // The age counts from the read's start: a read under way while the secret changed must not
    // make its (maybe old) keys last longer than the maximum age after the change.
    const startedAt = Date.now();
    reading = load()
      .then(
        (value) => {
          current = { value, readAt: startedAt };
          return value;
        },
        (error: unknown) => {
          if (error instanceof HttpError) throw error;
          logger.error(`${name} could not be read`, { error });
          throw unavailable();
        },
      )
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const get = async () => {
    if (!current) return read();
    if (Date.now() - current.readAt < secretMaxAgeMs()) return current.value;
    const last = current.value;
    return read().catch(() => last);
  };
  return Object.assign(get, {
    readAgain: () => {
      // Kept as the fallback should the read fail, but too old to be used without one.
      if (current) current = { ...current, readAt: Number.NEGATIVE_INFINITY };
    },
  });
}
