import fc from 'fast-check';
import * as z from '../../shared/zod.js';
import {
  COGNITO_TRIGGERS,
  DEPLOY_FUNCTIONS,
  EVENT_RULES,
  HTTP_ROUTE_GROUPS,
  QUEUE_CONSUMERS,
  STREAM_CONSUMERS,
  WEBSOCKET_API,
  type Access,
  type FunctionDeclaration,
} from '../../functions/routes.js';
import { applySchema, declineCompletionSchema } from '../../shared/schemas/application.js';
import { createJobSchema, imageUploadRequestSchema } from '../../shared/schemas/job.js';
import { confirmPaymentSchema, refundSchema } from '../../shared/schemas/payment.js';
import { reportJobSchema, reviewFlagSchema } from '../../shared/admin.js';
import { coordinatesUpdateSchema, notificationPreferencesSchema, zipUpdateSchema } from '../../shared/schemas/notifications.js';
import { profileUpdateSchema } from '../../shared/schemas/profile.js';
import { bulkResolveSchema, disputeMessageSchema, disputePrioritySchema, fileDisputeSchema, resolveDisputeSchema } from '../../shared/schemas/dispute.js';
import { reviewSchema } from '../../shared/schemas/review.js';
import { sendMessageSchema, startConversationSchema } from '../../shared/chat.js';

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
  'POST /uploads/images': imageUploadRequestSchema,
  'POST /jobs': createJobSchema,
  'PUT /jobs/{id}': createJobSchema,
  'POST /payments/confirm': confirmPaymentSchema,
  'POST /admin/payments/{id}/refund': refundSchema,
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
  'POST /conversations': startConversationSchema,
  'POST /conversations/{id}/messages': sendMessageSchema,
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

/** Bodies for a route: schema-guided ones (from its zod schema), any JSON, and text that is not JSON at all. */
export function bodyArbitrary(routeKey: string): fc.Arbitrary<string> {
  const schema = BODY_SCHEMAS[routeKey];
  const guided = schema
    ? fromJsonSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema).map((value) => JSON.stringify(value) ?? 'null')
    : fc.constant('{}');
  return fc.oneof(
    { arbitrary: guided, weight: 4 },
    { arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? 'null'), weight: 2 },
    { arbitrary: hostileString, weight: 1 },
    // A lone surrogate written as a JSON escape: valid JSON, invalid text.
    { arbitrary: fc.constant('{"message":"\\ud800","title":"\\udfff","reason":"\\ud800x"}'), weight: 1 },
  );
}
