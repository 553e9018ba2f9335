import { createHmac, timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { toBase64Url } from '../../shared/base64url.js';
import { readUnsubscribeToken, type UnsubscribeSubject } from '../../shared/unsubscribe-token.js';
import { env, optionalEnv } from './env.js';

let key: Promise<string> | undefined;

/** The signing key: a generated Secrets Manager secret in AWS (read once per container), the local stack's own key locally. */
function signingKey(): Promise<string> {
  const secretArn = optionalEnv('unsubscribeSecretArn');
  key ??= secretArn
    ? new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn })).then(({ SecretString }) => {
        if (!SecretString) throw new Error('The unsubscribe secret is empty');
        return SecretString;
      })
    : Promise.resolve(env('unsubscribeKey'));
  key.catch(() => (key = undefined));
  return key;
}

const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** A token that lets whoever holds it stop this user's email of this type, and nothing else (HMAC-SHA256). */
export async function unsubscribeToken(subject: UnsubscribeSubject): Promise<string> {
  const payload = toBase64Url(JSON.stringify({ u: subject.userId, t: subject.type }));
  return `${payload}.${sign(payload, await signingKey())}`;
}

/** What a token names, if its signature is ours; undefined for anything else. */
export async function verifyUnsubscribeToken(token: string): Promise<UnsubscribeSubject | undefined> {
  const read = readUnsubscribeToken(token);
  if (!read) return undefined;
  const expected = Buffer.from(sign(read.payload, await signingKey()));
  const given = Buffer.from(read.signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? read.subject : undefined;
}
