import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { HttpError } from '../../functions/lib/errors.js';
import { decodeShardCursor, encodeShardCursor, mergeShardPages, type ShardPosition, type ShardRead } from '../../functions/lib/sharded-lists.js';

type Key = { pk: string; sk: string; gsi1pk: string; gsi1sk: string };
/** A list item: its key, and whether the list's filter keeps it (a filtered item is read but not returned, as DynamoDB does). */
type Stored = { key: Key; kept: boolean };

const partitionsOf = (shards: number) => Array.from({ length: shards }, (_, shard) => `LIST#${shard}`);
const keyOf = (key: Key) => key;
/** Newest first: the larger sort key first. */
const compare = (a: Key, b: Key) => (a.gsi1sk < b.gsi1sk ? 1 : a.gsi1sk > b.gsi1sk ? -1 : 0);

/** A list: distinct sort keys, each item in a shard, some left out by the filter. */
const listOf = fc.integer({ min: 1, max: 5 }).chain((shards) =>
  fc.record({
    shards: fc.constant(shards),
    limit: fc.integer({ min: 1, max: 6 }),
    items: fc.uniqueArray(fc.record({ at: fc.integer({ min: 0, max: 9999 }), shard: fc.nat(shards - 1), kept: fc.boolean() }), { selector: (item) => item.at, maxLength: 40 }),
  }),
);

/** One shard's Query as DynamoDB answers it: `limit` items read after the position, the kept ones returned, the last read one's key while the limit was reached. */
function queryShard(stored: readonly Stored[], from: ShardPosition<Key>, limit: number): ShardRead<Key, Key> {
  if (from === 'end') return { from };
  const unread = stored.filter(({ key }) => from === 'start' || compare(key, from.after) > 0);
  const read = unread.slice(0, limit);
  return { from, page: { items: read.filter(({ kept }) => kept).map(({ key }) => key), lastKey: read.length === limit ? read.at(-1)!.key : undefined } };
}

/** Every page of the list, each cursor going through its encoding and back as it would through a browser. */
function readAllPages(list: { shards: number; limit: number; items: Array<{ at: number; shard: number; kept: boolean }> }): Key[][] {
  const partitions = partitionsOf(list.shards);
  const byShard = partitions.map((partition, shard) =>
    list.items
      .filter((item) => item.shard === shard)
      .map(({ at, kept }): Stored => ({ key: { pk: `ITEM#${at}`, sk: 'ITEM', gsi1pk: partition, gsi1sk: String(at).padStart(4, '0') }, kept }))
      .sort((a, b) => compare(a.key, b.key)),
  );
  const pages: Key[][] = [];
  let cursor: string | null | undefined;
  do {
    const positions = decodeShardCursor(cursor ?? undefined, 'GSI1', partitions);
    const merged = mergeShardPages(
      positions.map((from, shard) => queryShard(byShard[shard]!, from as ShardPosition<Key>, list.limit)),
      { limit: list.limit, keyOf, compare },
    );
    pages.push(merged.items);
    cursor = encodeShardCursor(merged.positions);
    if (pages.length > list.items.length + list.shards + 2) throw new Error('the pages never end');
  } while (cursor !== null);
  return pages;
}

describe('reading a sharded list as one (issue 24)', () => {
  it('pages k shards into one list in order, each item once, through cursors that round-trip', () => {
    fc.assert(
      fc.property(listOf, (list) => {
        const pages = readAllPages(list);
        const expected = list.items
          .filter(({ kept }) => kept)
          .sort((a, b) => b.at - a.at)
          .map(({ at }) => String(at).padStart(4, '0'));
        expect(pages.flat().map((key) => key.gsi1sk)).toEqual(expected);
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(list.limit);
      }),
      { numRuns: 300 },
    );
  });

  it('fills every page but the last when nothing is filtered out, as one partition would', () => {
    fc.assert(
      fc.property(listOf, (list) => {
        const pages = readAllPages({ ...list, items: list.items.map((item) => ({ ...item, kept: true })) });
        for (const page of pages.slice(0, -1)) expect(page).toHaveLength(list.limit);
      }),
      { numRuns: 200 },
    );
  });

  it('answers any other cursor 400, including a key of another shard or another list', () => {
    const partitions = partitionsOf(3);
    const refusal = { status: 400, message: MSG.backend.invalidCursor };
    const decoded = (cursor: string) => {
      try {
        return decodeShardCursor(cursor, 'GSI1', partitions);
      } catch (error) {
        expect(error).toBeInstanceOf(HttpError);
        return error as HttpError;
      }
    };
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const keyIn = (partition: string) => ({ pk: 'ITEM#1', sk: 'ITEM', gsi1pk: partition, gsi1sk: '0001' });
    for (const forged of [
      encoded(['start', 'start']), // a list of two shards
      encoded([{ after: keyIn('LIST#1') }, 'start', 'start']), // shard 1's key as shard 0's position
      encoded([{ after: keyIn('OTHER#0') }, 'end', 'end']),
      encoded([{ after: keyIn('LIST#0'), more: 1 }, 'end', 'end']),
      encoded(['start', 'start', 'middle']),
      encoded({ 0: 'start', 1: 'start', 2: 'start' }),
      '%%%',
    ]) {
      expect(decoded(forged)).toMatchObject(refusal);
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map(encoded)), (cursor) => {
        const answer = decoded(cursor);
        if (answer instanceof HttpError) expect(answer).toMatchObject(refusal);
        else expect(answer).toHaveLength(partitions.length);
      }),
    );
    expect(decoded(encoded([{ after: keyIn('LIST#0') }, 'end', 'start']))).toEqual([{ after: keyIn('LIST#0') }, 'end', 'start']);
  });
});
