import { MSG } from '../../shared/messages.js';
import { QUESTION_TEXTS } from '../../shared/questions.js';
import { notFound } from './errors.js';

/** Ids we mint (jobs, reviews…) and Cognito's user ids (`sub`) are UUIDs. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A Stripe PaymentIntent id (`pi_3Pq…`). */
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9]{1,200}$/;

/**
 * The shape of every id a route takes in its path, checked before any read. A parameter
 * named `{id}` is known by the collection before it (`/jobs/{id}` -> `jobs`); any other by
 * its own name. A route whose parameter is missing here fails when its handler is built,
 * so a new route cannot skip the check: add its shape.
 */
export const PATH_ID_SHAPES: Readonly<Record<string, RegExp>> = {
  jobs: UUID,
  profiles: UUID,
  payments: PAYMENT_INTENT_ID,
  jobId: UUID,
  workerId: UUID,
  reviewerId: UUID,
  questionId: UUID,
  notifications: UUID,
  disputes: UUID,
  users: UUID,
  'saved-searches': UUID,
  /** A money decision's id: `<action>.<job or worker id>.<nonce>` (functions/money/decision.ts). */
  decisions: /^[A-Za-z]{1,16}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9]{1,16}$/i,
  /** A conversation's id names its job and its worker (shared/chat.ts). */
  conversations: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/**
 * What a malformed id is answered with, by the same name: the text a well-formed unknown id
 * of that kind gets from its operation, so the two cannot be told apart. Unlisted: 'Not found'.
 */
const NOT_FOUND_TEXT: Readonly<Record<string, string>> = {
  jobs: MSG.jobs.notFound,
  jobId: MSG.jobs.notFound,
  profiles: MSG.auth.profileNotFound,
  workerId: MSG.applications.notFound,
  reviewerId: MSG.reviews.notFound,
  questionId: QUESTION_TEXTS.notFound,
  users: MSG.admin.userNotFound,
  decisions: MSG.admin.decisionNotFound,
  'saved-searches': MSG.search.savedSearchNotFound,
};

export interface PathIdShape {
  pattern: RegExp;
  notFound: string;
}

/** Each path parameter of a route template with the shape its value must have. */
export function pathIdShapes(routeKey: string): Record<string, PathIdShape> {
  const segments = routeKey.split(' ')[1]?.split('/') ?? [];
  const shapes: Record<string, PathIdShape> = {};
  segments.forEach((segment, i) => {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (!param) return;
    const shapeName = param === 'id' ? (segments[i - 1] ?? '') : param;
    const shape = PATH_ID_SHAPES[shapeName];
    if (!shape) throw new Error(`${routeKey}: no id shape for {${param}}; add '${shapeName}' to PATH_ID_SHAPES`);
    shapes[param] = { pattern: shape, notFound: NOT_FOUND_TEXT[shapeName] ?? MSG.backend.notFound };
  });
  return shapes;
}

/**
 * Answers 404 for an id of the wrong shape: nothing with that id can exist, exactly as for a
 * well-formed id that is unknown (and no oversized key ever reaches DynamoDB).
 */
export function checkPathIds(shapes: Record<string, PathIdShape>, params: Record<string, string>): void {
  for (const [param, shape] of Object.entries(shapes)) {
    if (!shape.pattern.test(params[param] ?? '')) throw notFound(shape.notFound);
  }
}
