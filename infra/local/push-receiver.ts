import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto';
import { createServer } from 'node:http';
import { decrypt } from 'http_ece';
import { guarded, listen, readBodyWithin, sendJson, type Listening } from './http-util.js';

/** What a browser's PushSubscription.toJSON() gives, for a subscription at this receiver. */
export interface ReceiverSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** A push as the receiver decrypted it. */
export interface ReceivedPush {
  /** The decrypted payload, as text. */
  payload: string;
  ttl: number;
  /** The VAPID JWT's `sub` (RFC 8292 §2.1). */
  subject: string;
  receivedAt: string;
}

interface Subscription {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
  /** The VAPID public key the subscription was made with: pushes signed by another are refused (RFC 8292 §4.2). */
  applicationServerKey: string;
  gone: boolean;
  received: ReceivedPush[];
}

/** The pushes a subscription keeps, newest last: a browser shows each as it comes; a long `npm run dev` stays bounded. */
export const RECEIVED_PUSHES_KEPT = 100;

/** RFC 8030 §7.2: a push service's largest payload, which senders must stay within. */
const MAX_PUSH_BYTES = 4096;

/**
 * A Web Push service on this machine (RFC 8030 as a browser's push service answers it), so
 * the server's web-push sending path runs for real locally: it hands out subscriptions whose
 * endpoint points at it and whose keys it holds, checks each push's VAPID signature against
 * the key the subscription was made with (RFC 8292), decrypts the payload with the
 * subscription's private keys (RFC 8291, aes128gcm of RFC 8188) and keeps what it got. A
 * subscription can be marked gone, after which pushes to it are answered 410 as a real push
 * service answers for an unsubscribed browser. Browsers themselves cannot subscribe here: a
 * browser's pushManager.subscribe() uses its vendor's push service.
 *
 * Besides the push service's own route (POST /push/<id>), two local ones let a process other
 * than the stack's own (the browser tests' files, a developer's curl) do what `subscribe` and
 * `received` do: POST /subscriptions with {applicationServerKey} answers a new subscription,
 * and GET on a subscription's endpoint answers {received} (what it received, oldest first).
 */
export class PushReceiver {
  private readonly subscriptions = new Map<string, Subscription>();
  private url = '';

  /** A new subscription for an app whose VAPID public key is `applicationServerKey` (base64url). */
  subscribe(applicationServerKey: string): ReceiverSubscription {
    const id = randomUUID();
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription: Subscription = { id, ecdh, auth: randomBytes(16), applicationServerKey, gone: false, received: [] };
    this.subscriptions.set(id, subscription);
    return {
      endpoint: `${this.url}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: subscription.auth.toString('base64url') },
    };
  }

  /** What the subscription with this endpoint received (its last RECEIVED_PUSHES_KEPT), oldest first. */
  received(endpoint: string): ReceivedPush[] {
    return [...(this.byEndpoint(endpoint)?.received ?? [])];
  }

  /** The browser unsubscribed: pushes to it are answered 410 Gone from now on. */
  unsubscribe(endpoint: string): void {
    const subscription = this.byEndpoint(endpoint);
    if (subscription) subscription.gone = true;
  }

  private byEndpoint(endpoint: string): Subscription | undefined {
    return this.subscriptions.get(endpoint.slice(`${this.url}/push/`.length));
  }

  async serve(port: number): Promise<Listening> {
    const server = createServer(
      guarded('push-receiver', async (req, res) => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        if (req.method === 'POST' && path === '/subscriptions') {
          const applicationServerKey = jsonField((await readBodyWithin(req, MAX_PUSH_BYTES))?.toString('utf8'), 'applicationServerKey');
          if (typeof applicationServerKey !== 'string' || !/^B[\w-]{86}$/.test(applicationServerKey)) {
            return sendJson(res, 400, { message: 'applicationServerKey must be an uncompressed P-256 public key, base64url' });
          }
          return sendJson(res, 201, this.subscribe(applicationServerKey));
        }
        const id = /^\/push\/([\w-]+)$/.exec(path)?.[1];
        if (!id || (req.method !== 'POST' && req.method !== 'GET')) return sendJson(res, 404, { message: 'Not Found' });
        const subscription = this.subscriptions.get(id);
        if (!subscription) return sendJson(res, 404, { message: 'No such subscription' });
        if (req.method === 'GET') return sendJson(res, 200, { received: subscription.received });
        if (subscription.gone) return sendJson(res, 410, { message: 'Subscription expired' });
        const ttl = Number(req.headers.ttl);
        if (!Number.isInteger(ttl) || ttl < 0) return sendJson(res, 400, { message: 'TTL header required' });
        const subject = checkVapid(req.headers.authorization, subscription.applicationServerKey, this.url);
        if (typeof subject !== 'string') return sendJson(res, 403, { message: subject.refused });
        if (req.headers['content-encoding'] !== 'aes128gcm') return sendJson(res, 415, { message: 'Content-Encoding must be aes128gcm' });
        const body = await readBodyWithin(req, MAX_PUSH_BYTES);
        if (!body) return sendJson(res, 413, { message: 'Payload too large' });
        let payload: string;
        try {
          payload = decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth }).toString('utf8');
        } catch {
          return sendJson(res, 400, { message: 'Payload could not be decrypted' });
        }
        subscription.received.push({ payload, ttl, subject, receivedAt: new Date().toISOString() });
        if (subscription.received.length > RECEIVED_PUSHES_KEPT) subscription.received.splice(0, subscription.received.length - RECEIVED_PUSHES_KEPT);
        res.writeHead(201, { location: `${this.url}/message/${randomUUID()}` });
        res.end();
      }),
    );
    const listening = await listen(server, port);
    this.url = listening.url;
    return listening;
  }
}

/** One field of a JSON object body; undefined for a body that is not one. */
function jsonField(body: string | undefined, field: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292 §3): k is the key the
 * subscription was made with, the ES256 signature verifies with it, the audience is this
 * service's origin and it has not expired. Answers the JWT's subject, or why it was refused.
 */
function checkVapid(header: string | undefined, applicationServerKey: string, origin: string): string | { refused: string } {
  const fields = Object.fromEntries([...(header ?? '').matchAll(/([tk])=([^,\s]+)/g)].map((match) => [match[1], match[2]]));
  if (!header?.startsWith('vapid ') || !fields.t || !fields.k) return { refused: 'VAPID authorization required' };
  if (fields.k !== applicationServerKey) return { refused: 'VAPID key does not match the subscription' };
  const [head, claims, signature] = fields.t.split('.');
  const point = Buffer.from(fields.k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature ?? '', 'base64url'));
  if (!signed) return { refused: 'VAPID signature does not verify' };
  const jwt = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as { aud?: string; exp?: number; sub?: string };
  if (jwt.aud !== origin) return { refused: 'VAPID audience is not this push service' };
  if (!jwt.exp || jwt.exp * 1000 < Date.now()) return { refused: 'VAPID token expired' };
  return jwt.sub ?? '';
}
