import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { decodePathSegment, guarded, listen, readBody, type Listening } from './http-util.js';

/** The secret access key of an access key id, or undefined when no such key exists (a credentials table). */
export type SecretAccessKeyOf = (accessKeyId: string) => string | undefined;

/** A refusal as S3 answers it: status, error code, message and the code's extra elements. */
export class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
  }

  toXml(): string {
    // Text content: only & and < need escaping (S3 leaves quotes as they are).
    const element = (name: string, value: string | number) => `<${name}>${String(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</${name}>`;
    const details = Object.entries(this.details).map(([name, value]) => element(name, value));
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    return `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${[element('Code', this.code), element('Message', this.message), ...details, element('RequestId', requestId), element('HostId', requestId)].join('')}</Error>`;
  }
}

const policyRefusal = (reason: string) => new S3Refusal(403, 'AccessDenied', `Invalid according to Policy: ${reason}`);

/** Form fields S3 never asks the policy to cover. */
const UNCOVERED_FIELDS = /^(policy|x-amz-signature|file|x-ignore-.*)$/;

/** One policy condition, normalised to S3's array form: ["eq" | "starts-with", "$field", value] or ["content-length-range", min, max]. */
type Condition = ['eq' | 'starts-with', string, string] | ['content-length-range', number, number];

function normalise(condition: unknown): Condition {
  if (Array.isArray(condition) && condition.length === 3) {
    const [operator, first, second] = condition as unknown[];
    if (operator === 'content-length-range' && Number.isInteger(first) && Number.isInteger(second)) return [operator, first as number, second as number];
    if ((operator === 'eq' || operator === 'starts-with') && typeof first === 'string' && first.startsWith('$') && typeof second === 'string') {
      return [operator, first, second];
    }
  } else if (condition && typeof condition === 'object' && Object.keys(condition).length === 1) {
    const [[field, value]] = Object.entries(condition) as [[string, unknown]];
    if (typeof value === 'string') return ['eq', `$${field}`, value];
  }
  throw new S3Refusal(400, 'InvalidPolicyDocument', `Invalid Policy: Invalid Condition: ${JSON.stringify(condition)}`);
}

/** The signing key of SigV4 (AWS4-HMAC-SHA256) for one day, region and service. */
function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/** A browser-based upload: the text fields before the file (S3 ignores those after it), names lower-cased, and the file. */
export interface PostUpload {
  bucket: string;
  fields: Map<string, string>;
  file: Blob | undefined;
}

function requiredField(upload: PostUpload, name: string): string {
  const value = upload.fields.get(name);
  if (value === undefined) {
    throw new S3Refusal(400, 'InvalidArgument', `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`, {
      ArgumentName: name,
      ArgumentValue: '',
    });
  }
  return value;
}

/**
 * Checks a presigned POST upload as S3 does: its policy signed with SigV4 by a known access key,
 * not expired, every condition met by the form (`eq`, `starts-with`, `content-length-range`
 * on the file), and no field the policy does not name. Throws S3's refusal; returns when S3
 * would store the file.
 */
export function checkPostUpload(upload: PostUpload, secretAccessKeyOf: SecretAccessKeyOf, now = new Date()): void {
  // Without a policy, the POST is anonymous: refused on a bucket nobody may write to anonymously.
  const policy = upload.fields.get('policy');
  if (policy === undefined) throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
  const algorithm = requiredField(upload, 'x-amz-algorithm');
  const credential = requiredField(upload, 'x-amz-credential');
  const signature = requiredField(upload, 'x-amz-signature');
  requiredField(upload, 'x-amz-date');
  if (algorithm !== 'AWS4-HMAC-SHA256') throw new S3Refusal(400, 'InvalidArgument', `Unsupported algorithm: ${algorithm}`, { ArgumentName: 'x-amz-algorithm', ArgumentValue: algorithm });
  const [accessKeyId = '', date = '', region = '', service = '', terminator] = credential.split('/');
  if (!/^\d{8}$/.test(date) || !region || service !== 's3' || terminator !== 'aws4_request') {
    throw new S3Refusal(400, 'InvalidArgument', `Invalid credential: ${credential}`, { ArgumentName: 'x-amz-credential', ArgumentValue: credential });
  }
  const secret = secretAccessKeyOf(accessKeyId);
  if (secret === undefined) {
    throw new S3Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKeyId });
  }
  const expected = createHmac('sha256', signingKey(secret, date, region, 's3')).update(policy).digest();
  const provided = Buffer.from(signature, 'hex');
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
    throw new S3Refusal(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', {
      AWSAccessKeyId: accessKeyId,
      StringToSign: policy,
      SignatureProvided: signature,
    });
  }

  let document: { expiration?: unknown; conditions?: unknown };
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as typeof document;
  } catch {
    throw new S3Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const expiration = typeof document.expiration === 'string' ? Date.parse(document.expiration) : NaN;
  if (Number.isNaN(expiration)) throw new S3Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid \'expiration\' value.');
  if (expiration <= now.getTime()) throw policyRefusal('Policy expired.');
  if (!Array.isArray(document.conditions)) throw new S3Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid \'conditions\' value.');

  const conditions = document.conditions.map(normalise);
  const covered = new Set<string>();
  let sizeRange: [number, number] | undefined;
  for (const condition of conditions) {
    if (condition[0] === 'content-length-range') {
      sizeRange = [condition[1], condition[2]];
      continue;
    }
    const [operator, variable, value] = condition;
    const field = variable.slice(1).toLowerCase();
    covered.add(field);
    // The bucket is the one the form is posted to.
    const actual = field === 'bucket' ? upload.bucket : upload.fields.get(field);
    const met = actual !== undefined && (operator === 'eq' ? actual === value : actual.startsWith(value));
    if (!met) throw policyRefusal(`Policy Condition failed: ["${operator}", "${variable}", "${value}"]`);
  }
  const extra = [...upload.fields.keys()].filter((name) => !UNCOVERED_FIELDS.test(name) && !covered.has(name));
  if (extra.length) throw policyRefusal(`Extra input fields: ${extra.join(', ')}`);

  if (!upload.file) throw new S3Refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.', { ArgumentName: 'file', ArgumentValue: '0' });
  const size = upload.file.size;
  if (sizeRange && size > sizeRange[1]) {
    throw new S3Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', { ProposedSize: size, MaxSizeAllowed: sizeRange[1] });
  }
  if (sizeRange && size < sizeRange[0]) {
    throw new S3Refusal(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', { ProposedSize: size, MinSizeAllowed: sizeRange[0] });
  }
}

/** Reads a multipart POST's form as S3 does: fields up to the file, which ends it. */
async function readUpload(bucket: string, contentType: string, body: Buffer): Promise<PostUpload> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new S3Refusal(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');
  }
  const fields = new Map<string, string>();
  for (const [name, value] of form.entries()) {
    if (name.toLowerCase() === 'file') return { bucket, fields, file: typeof value === 'string' ? new Blob([value]) : value };
    if (typeof value === 'string') fields.set(name.toLowerCase(), value);
  }
  return { bucket, fields, file: undefined };
}

/** Sends the request on to S3 (its body already read, or still to stream) and its answer back. */
function forward(req: IncomingMessage, res: ServerResponse, backend: URL, body?: Buffer): void {
  const upstream = request(new URL(req.url ?? '/', backend), { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    console.error('[s3] backend unreachable', error.message);
    if (!res.headersSent) res.writeHead(503).end();
    else res.destroy();
  });
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

/**
 * A front for s3rver, which checks neither signatures nor POST policies: browser uploads
 * (multipart POSTs to a bucket) are checked as S3 checks them (checkPostUpload) and refused
 * with S3's XML errors; everything else passes through untouched.
 */
export async function serveS3PostPolicyFront(options: { port: number; backend: string; secretAccessKeyOf: SecretAccessKeyOf }): Promise<Listening> {
  const backend = new URL(options.backend);
  const server = createServer(
    guarded('s3', async (req, res) => {
      const bucket = decodePathSegment(/^\/([^/?]+)\/?(?:\?|$)/.exec(req.url ?? '')?.[1] ?? '');
      const contentType = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || !bucket || !contentType.startsWith('multipart/form-data')) return forward(req, res, backend);
      const body = await readBody(req);
      try {
        checkPostUpload(await readUpload(bucket, contentType, body), options.secretAccessKeyOf);
      } catch (error) {
        if (!(error instanceof S3Refusal)) throw error;
        // S3 answers a browser's refused upload with CORS headers too, so the page can read why.
        res.writeHead(error.status, { 'content-type': 'application/xml', ...(req.headers.origin ? { 'access-control-allow-origin': '*' } : {}) });
        res.end(error.toXml());
        return;
      }
      forward(req, res, backend, body);
    }),
  );
  return listen(server, options.port);
}
