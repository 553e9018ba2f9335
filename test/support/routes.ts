import fc from 'fast-check';
import * as z from '../../shared/zod.js';
import {
  COGNITO_TRIGGERS,
  DEPLOY_FUNCTIONS,
  EVENT_RULES,
  HTTP_ROUTE_GROUPS,
  QUEUE_CONSUMERS,
  RECURRING_SCHEDULES,
  SCHEDULE_TARGETS,
  STREAM_CONSUMERS,
  TOPIC_CONSUMERS,
  WEBSOCKET_API,
  type Access,
  type FunctionDeclaration,
} from '../../functions/routes.js';
import { applySchema, declineCompletionSchema } from '../../shared/schemas/application.js';
import { createJobSchema, imageUploadRequestSchema } from '../../shared/schemas/job.js';
import { confirmPaymentSchema, refundSchema, tipSchema } from '../../shared/schemas/payment.js';
import { pushSubscriptionSchema } from '../../shared/schemas/push.js';
import { categoryVisibilitySchema, reportJobSchema, reviewFlagSchema, userActionSchema } from '../../shared/schemas/admin.js';
import { coordinatesUpdateSchema, notificationPreferencesSchema, zipUpdateSchema } from '../../shared/schemas/notifications.js';
import { accountDeletionSchema, profileUpdateSchema } from '../../shared/schemas/profile.js';
import { bulkResolveSchema, disputeMessageSchema, disputePrioritySchema, fileDisputeSchema, resolveDisputeSchema } from '../../shared/schemas/dispute.js';
import { reviewSchema } from '../../shared/schemas/review.js';
import { sendMessageSchema, startConversationSchema } from '../../shared/schemas/chat.js';

export interface DeclaredRoute {
  routeKey: string;
  method: string;
  template: string;
  access: Access;
  /** The path parameters, in order: `/jobs/{id}/applications/{workerId}` -> ['id', 'workerId']. */
  params: string[];
}

/** Every HTTP route functions/routes.ts declares: tests iterate these, so a new route is tested as soon as it exists. */
export const DECLARED_ROUTES: DeclaredRoute[] = Object.values(HTTP_ROUTE_GROUPS).flatMap((group) =>
  Object.entries(group.routes as Record<string, Access>).map(([routeKey, access]) => {
    const [method, template] = routeKey.split(' ') as [string, string];
    return { routeKey, method, template, access, params: [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!) };
  }),
);

/** Every function the app declares besides the HTTP route groups: rules, triggers, consumers, the WebSocket API's and the deploy's. */
export const NON_HTTP_DECLARATIONS: FunctionDeclaration[] = [
  ...Object.values(EVENT_RULES),
  ...Object.values(COGNITO_TRIGGERS),
  ...Object.values(STREAM_CONSUMERS),
  ...Object.values(DEPLOY_FUNCTIONS),
  ...Object.values(QUEUE_CONSUMERS),
  ...Object.values(TOPIC_CONSUMERS),
  ...Object.values(SCHEDULE_TARGETS),
  ...Object.values(RECURRING_SCHEDULES),
  WEBSOCKET_API.authorizer,
  WEBSOCKET_API.connections,
];

/** Fills a route template with already-encoded path segments. */
export const fillPath = (template: string, segment: (param: string) => string) => template.replace(/\{(\w+)\}/g, (_, param: string) => segment(param));

/**
 * The body schema of each route that reads one (the same schemas the handlers use). Routes
 * not listed take no body, or (the webhook) a signed one; they still get hostile bodies.
 */
export const BODY_SCHEMAS: Readonly<Record<string, z.ZodMiniType>> = {
  'PATCH /me': profileUpdateSchema,
  'POST /me/deletion': accountDeletionSchema,
  'POST /uploads/images': imageUploadRequestSchema,
  'POST /jobs': createJobSchema,
  'PUT /jobs/{id}': createJobSchema,
  'POST /payments/confirm': confirmPaymentSchema,
  'POST /admin/payments/{id}/refund': refundSchema,
  'POST /jobs/{id}/tip': tipSchema,
  'POST /jobs/{id}/applications': applySchema,
  'POST /jobs/{id}/decline-completion': declineCompletionSchema,
  'POST /jobs/{id}/reviews': reviewSchema,
  'PUT /jobs/{id}/reviews/{reviewerId}': reviewSchema,
  'PUT /me/location': z.union([coordinatesUpdateSchema, zipUpdateSchema]),
  'PUT /me/notification-preferences': notificationPreferencesSchema,
  'POST /jobs/{id}/dispute': fileDisputeSchema,
  'POST /disputes/{id}/messages': disputeMessageSchema,
  'PUT /admin/disputes/{id}/priority': disputePrioritySchema,
  'POST /admin/disputes/{id}/resolve': resolveDisputeSchema,
  'POST /admin/disputes/bulk-resolve': bulkResolveSchema,
  'POST /jobs/{id}/flags': reportJobSchema,
  'POST /admin/flags/{jobId}/review': reviewFlagSchema,
  'PUT /admin/categories': categoryVisibilitySchema,
  'POST /admin/users/{id}/suspend': userActionSchema,
  'POST /admin/users/{id}/reinstate': userActionSchema,
  'POST /admin/users/{id}/password-reset': userActionSchema,
  'POST /admin/users/{id}/identity-revocation': userActionSchema,
  'POST /conversations': startConversationSchema,
  'POST /conversations/{id}/messages': sendMessageSchema,
  'PUT /me/push-subscriptions': pushSubscriptionSchema,
};

/** Every byte percent-encoded (lone surrogates become U+FFFD, as in any UTF-8 client). */
export const encodeBytes = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** Strings a careless or hostile client sends: long, surrogates, escapes, markup, injections, control characters. */
export const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\ud800',
    'a\udc00b',
    '😀'.repeat(50),
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    '../../etc/passwd',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '<svg onload=alert(1)>',
    'javascript:alert(1)',
    '\u0000\u0001\u001f',
    '__proto__',
    '{"$ne":null}',
    'e30',
  ),
  fc.nat({ max: 12_000 }).map((length) => 'x'.repeat(length)),
);

/** Numbers that break naive code: huge, tiny, negative, fractional, not safe integers. */
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 53, 1e-320),
);

/** Any JSON, nested deep, with hostile leaves. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
  ),
})).value;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
};

/** Values that fit a JSON schema most of the time, with hostile values mixed in at every level. */
function fromJsonSchema(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(fromJsonSchema));
  if (schema.enum) return fc.oneof(fc.constantFrom(...schema.enum), hostileString);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  const fitting = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'object': {
        const properties = Object.entries(schema.properties ?? {});
        return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, fromJsonSchema(property)])), {
          requiredKeys: properties.map(([name]) => name).filter((name) => schema.required?.includes(name)),
        });
      }
      case 'array':
        return fc.array(schema.items ? fromJsonSchema(schema.items) : hostileJson, { maxLength: (schema.maxItems ?? 5) + 1 });
      case 'string':
        return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 2000) + 1 });
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        return hostileJson;
    }
  });
  return fc.oneof({ arbitrary: fc.oneof(...fitting), weight: 4 }, { arbitrary: hostileJson, weight: 1 });
}

/** A schema-guided value of a route's body (any JSON for a route that reads none). */
function guidedValue(routeKey: string): fc.Arbitrary<unknown> {
  const schema = BODY_SCHEMAS[routeKey];
  return schema ? fromJsonSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : fc.constant({});
}

/** The names a route's body schema reads (at the top level), for attacks aimed at real fields. */
function fieldNames(routeKey: string): string[] {
  const schema = BODY_SCHEMAS[routeKey];
  const json = schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : {};
  const objects = json.anyOf ?? [json];
  return [...new Set(objects.flatMap((object) => Object.keys(object.properties ?? {})))];
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** `count` copies of a JSON text joined into an array. */
const jsonArrayOf = (element: string, count: number) => `[${new Array<string>(count).fill(element).join(',')}]`;

/** Arrays and objects inside one another, `depth` deep, closed or (sometimes) not. */
const nestedText = fc
  .record({
    depth: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 64 }), weight: 1 }, { arbitrary: fc.constantFrom(1_000, 10_000, 200_000), weight: 2 }),
    open: fc.constantFrom('[', '{"a":', '{"__proto__":', '[{"constructor":'),
    closed: fc.boolean(),
  })
  .map(({ depth, open, closed }) => {
    const close = [...open].filter((char) => char === '[' || char === '{').reverse().map((char) => (char === '[' ? ']' : '}')).join('');
    return open.repeat(depth) + '1' + (closed ? close.repeat(depth) : '');
  });

/**
 * JSON texts that attack structure, not values: depth, width, huge arrays, prototype-polluting
 * objects, numbers no double holds, number-like strings, strings no encoding holds.
 */
const structureValueText: fc.Arbitrary<string> = fc.oneof(
  nestedText,
  fc.record({ count: fc.constantFrom(1_000, 100_000, 300_000), element: fc.constantFrom('1', '"x"', '{}', '[]', 'null', '"\\ud800"') }).map(({ count, element }) => jsonArrayOf(element, count)),
  fc.constantFrom(10_000, 100_000).map((width) => `{${Array.from({ length: width }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  fc.constantFrom(
    '{"isAdmin":true,"role":"admin","polluted":1}',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '9007199254740993',
    '-9007199254740993',
    '123456789012345678901234567890',
    '1e400',
    '-1e400',
    '1e-400',
    '-0',
    '0.1e1',
    '"NaN"',
    '"Infinity"',
    '"-Infinity"',
    '"1e309"',
    '"0x1F"',
    '" 42 "',
    '"4_2"',
    '"9007199254740993"',
    '"\\ud800"',
    '"a\\udc00b"',
    '"\\u0000"',
    '{"\\ud800":1}',
  ),
  hostileJson.map((value) => JSON.stringify(value) ?? 'null'),
);

/** Puts `"name": value` (raw JSON text) into a JSON object's text, first or last (a duplicate key's last copy wins). */
function withMember(objectText: string, name: string, valueText: string, last: boolean): string {
  const member = `${JSON.stringify(name)}:${valueText}`;
  if (!objectText.startsWith('{')) return `{${member}}`;
  const rest = objectText.slice(1, -1);
  if (!rest) return `{${member}}`;
  return last ? `{${rest},${member}}` : `{${member},${rest}}`;
}

/** Bytes that are not UTF-8: stray continuation, overlong, encoded surrogate, past U+10FFFF, cut sequences. */
const invalidUtf8 = fc.oneof(
  fc.constantFrom([0xff], [0xfe, 0xff], [0x80], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98]),
  fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 12 }),
);

/** Bodies nested a few thousand levels deep, which every route with a body once answered 500. */
export const DEEP_BODIES: readonly string[] = [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`];

/** A request body as sent: text or bytes, and the content type it claims (none: no header). */
export interface RequestBody {
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string | undefined;
}

const JSON_TYPE = 'application/json';
/** Content types a JSON route does not expect; binary ones reach the handler base64-encoded, as from API Gateway. */
const otherContentType = fc.constantFrom(
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'image/png',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
);

/**
 * Bodies for a route: schema-guided ones (from its zod schema), any JSON, text that is not JSON
 * at all, and structure attacks on the guided ones (a real field or a prototype key replaced by
 * an attack, first or as a duplicate last; empty and truncated bodies; bytes that are not
 * UTF-8; UTF-16), each sent as JSON or under another content type.
 */
export function requestBodyArbitrary(routeKey: string): fc.Arbitrary<RequestBody> {
  const guided = guidedValue(routeKey).map((value) => JSON.stringify(value) ?? 'null');
  const names = [...fieldNames(routeKey), ...PROTOTYPE_KEYS, 'extra'];
  const text = fc.oneof(
    { arbitrary: guided, weight: 2 },
    { arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? 'null'), weight: 1 },
    { arbitrary: hostileString, weight: 1 },
    // A lone surrogate written as a JSON escape: valid JSON, invalid text.
    { arbitrary: fc.constant('{"message":"\\ud800","title":"\\udfff","reason":"\\ud800x"}'), weight: 1 },
    { arbitrary: fc.tuple(guided, fc.constantFrom(...names), structureValueText, fc.boolean()).map(([object, name, value, last]) => withMember(object, name, value, last)), weight: 5 },
    { arbitrary: nestedText, weight: 2 },
    { arbitrary: fc.constant(''), weight: 1 },
    { arbitrary: fc.tuple(guided, fc.nat()).map(([object, cut]) => object.slice(0, cut % Math.max(object.length, 1))), weight: 1 },
  );
  const bytes = fc.oneof(
    fc.tuple(guided, fc.constantFrom(...names), invalidUtf8, fc.boolean()).map(([object, name, invalid, last]) => {
      // A string member holding a NUL (which JSON.stringify never leaves raw) marks where the bytes go.
      const [before, after] = withMember(object, name, '"\u0000"', last).split('\u0000');
      return Buffer.concat([Buffer.from(before!), Buffer.from(invalid), Buffer.from(after!)]);
    }),
    fc.uint8Array({ maxLength: 64 }),
    guided.map((object) => Buffer.from(object, 'utf16le')),
  );
  return fc.oneof(
    { arbitrary: fc.record({ body: text, contentType: fc.constant(JSON_TYPE) }), weight: 6 },
    { arbitrary: fc.record({ body: bytes, contentType: fc.constant(JSON_TYPE) }), weight: 2 },
    { arbitrary: fc.record({ body: fc.oneof(text, bytes), contentType: otherContentType }), weight: 2 },
  );
}
