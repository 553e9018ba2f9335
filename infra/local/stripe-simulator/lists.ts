import type { ApiCall } from './operation.js';
import { ParameterError } from './errors.js';
import type { ListObject } from './objects.js';

/** Stripe's range filter on `created`: an exact epoch second, or any of gt, gte, lt, lte. */
function createdFilter(call: ApiCall): (created: number) => boolean {
  const exact = typeof call.params.params.created === 'string' ? call.params.integer('created') : undefined;
  if (exact !== undefined) return (created) => created === exact;
  const range = call.params.hash('created');
  if (!range) return () => true;
  const [gt, gte, lt, lte] = (['gt', 'gte', 'lt', 'lte'] as const).map((bound) => range.integer(bound));
  return (created) => (gt === undefined || created > gt) && (gte === undefined || created >= gte) && (lt === undefined || created < lt) && (lte === undefined || created <= lte);
}

/**
 * One page of a Stripe list: newest first, `limit` between 1 and 100 (10 by default), after
 * `starting_after` or before `ending_before` (ids of the list), filtered by `created` and by
 * the endpoint's own filter. `stored` is the collection oldest first, as the store keeps it.
 */
export function listPage<Item extends { id: string; created: number }>(call: ApiCall, stored: Iterable<Item>, url: string, matches: (item: Item) => boolean = () => true): ListObject<Item> {
  const { params } = call;
  const limit = params.integer('limit') ?? 10;
  if (limit < 1 || limit > 100) throw new ParameterError('This value must be between 1 and 100.', { param: 'limit' });
  const startingAfter = params.string('starting_after');
  const endingBefore = params.string('ending_before');
  const created = createdFilter(call);
  let matching = [...stored].reverse().filter((item) => created(item.created) && matches(item));
  if (startingAfter !== undefined) matching = matching.slice(matching.findIndex((item) => item.id === startingAfter) + 1);
  if (endingBefore !== undefined) {
    const before = matching.slice(0, Math.max(0, matching.findIndex((item) => item.id === endingBefore)));
    return { object: 'list', data: before.slice(-limit), has_more: before.length > limit, url };
  }
  return { object: 'list', data: matching.slice(0, limit), has_more: matching.length > limit, url };
}
