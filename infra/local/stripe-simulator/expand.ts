import { ParameterError } from './errors.js';
import type { JsonObject, StripeObject } from './objects.js';
import type { SimulatorStore } from './store.js';

export type ObjectType = StripeObject['object'];

/** The expandable fields of each object that the simulator can follow, and what they expand into. */
const EXPANDABLE: Record<ObjectType, Record<string, ObjectType>> = {
  account: {},
  // `source` is any of several objects at Stripe (a charge, refund, transfer, reversal, payout); the
  // simulator follows it to whatever the id names and checks deeper paths as a transfer
  // reversal's, the one source the product expands through (functions/money/reconciliation.ts).
  balance_transaction: { source: 'transfer_reversal' },
  customer: {},
  dispute: { charge: 'charge', payment_intent: 'payment_intent' },
  charge: { balance_transaction: 'balance_transaction', payment_intent: 'payment_intent' },
  payment_intent: { customer: 'customer', latest_charge: 'charge' },
  payout: { balance_transaction: 'balance_transaction' },
  refund: { balance_transaction: 'balance_transaction', charge: 'charge', payment_intent: 'payment_intent' },
  transfer: { balance_transaction: 'balance_transaction', destination: 'account', source_transaction: 'charge' },
  transfer_reversal: { balance_transaction: 'balance_transaction', transfer: 'transfer' },
  // Stripe's verified_outputs and last_verification_report are not modelled: expanding them is refused.
  'identity.verification_session': {},
};

/** What a route answers with, for expansion: one object, or a list whose paths start with `data.`. */
export interface ExpansionTarget {
  object: ObjectType;
  list?: true;
}

/** Stripe's limit on nested expansion. */
const MAX_DEPTH = 4;

const cannotExpand = (field: string) => new ParameterError(`This property cannot be expanded (${field}).`, { param: 'expand' });

/** Refuses `expand[]` paths the answer cannot honour before the request does anything, as Stripe validates first. */
export function checkExpandPaths(target: ExpansionTarget | undefined, paths: string[]): void {
  for (const path of paths) {
    const segments = path.split('.');
    if (target?.list && segments.shift() !== 'data') throw cannotExpand(path);
    if (segments.length > MAX_DEPTH) throw new ParameterError(`You cannot expand more than ${MAX_DEPTH} levels of a property.`, { param: 'expand' });
    segments.reduce<ObjectType | undefined>((type, field) => {
      const next = type && EXPANDABLE[type][field];
      if (!next) throw cannotExpand(field);
      return next;
    }, target?.object);
  }
}

const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Replaces the id at `field` (in each item, for a list's `data`) with the object it names, then goes on down the path. */
function expandPath(store: SimulatorStore, object: JsonObject, [field = '', ...rest]: string[]): JsonObject {
  const expand = (value: unknown): unknown => {
    const related = typeof value === 'string' ? (store.find(value) ?? value) : value;
    return isJsonObject(related) && rest.length ? expandPath(store, related, rest) : related;
  };
  const value = object[field];
  return { ...object, [field]: Array.isArray(value) ? value.map(expand) : expand(value) };
}

/** The answer with every (checked) `expand[]` path applied; the stored objects are left as they are. */
export const expandAnswer = (store: SimulatorStore, answer: JsonObject, paths: string[]): JsonObject =>
  paths.reduce((expanded, path) => expandPath(store, expanded, path.split('.')), answer);
