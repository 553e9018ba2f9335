import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { MSG } from '../../shared/messages.js';
import { hasLoneSurrogate } from '../../shared/text.js';
import { TABLE_DESIGN, type IndexName, type ItemKey } from '../table.js';
import { env } from './env.js';
import { badRequest } from './errors.js';

/**
 * One document client per process. The endpoint comes from the SDK's own configuration
 * (AWS_ENDPOINT_URL_DYNAMODB in the local stack), so the code is the same everywhere.
 */
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = (): string => env('tableName');

/** True when a write failed only because its condition did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * Whether a conditional write held: false when DynamoDB refused it for its condition alone (a
 * claim made before, an item already there or already gone); any other failure is thrown.
 */
export async function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Whether the item is there, read consistently (a marker written with a change tells whether that change was made). */
export async function itemExists(key: ItemKey): Promise<boolean> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true, ProjectionExpression: 'pk' }));
  return Item !== undefined;
}

/**
 * Every item a query matches, page after page (for lists bounded by the domain, not by the
 * caller), or its first `upTo` when a filter may leave pages short of what the caller shows.
 */
export async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>, upTo = Infinity): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as T[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < upTo);
  return items.slice(0, upTo);
}

/** The query a page cursor continues: an index and the partition value it was read from. */
export interface CursorScope {
  index: IndexName;
  partition: string;
}

/**
 * Page cursors are the query's LastEvaluatedKey, base64url-encoded JSON. They come back
 * from the client, so a decoded cursor must be exactly the key of the query it continues:
 * the table's and the index's key attributes, strings within DynamoDB's key size, and the
 * same index partition (a cursor cannot open another partition). Anything else is answered
 * 400 'Invalid cursor' before DynamoDB sees it.
 */
export function encodeCursor(lastKey: Record<string, unknown> | undefined): string | null {
  return lastKey ? Buffer.from(JSON.stringify(lastKey)).toString('base64url') : null;
}

const MAX_KEY_BYTES = 1024;

export function decodeCursor(cursor: string | undefined, scope: CursorScope): Record<string, string> | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const value = parseCursor(cursor);
  if (!isKeyOf(value, scope)) throw badRequest(MSG.backend.invalidCursor);
  return value;
}

/** The JSON a base64url cursor holds; 400 'Invalid cursor' when it holds none. */
export function parseCursor(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(MSG.backend.invalidCursor);
  }
}

/** Whether a value from a cursor is exactly a key of the query `scope` names (see `encodeCursor`). */
export function isKeyOf(value: unknown, scope: CursorScope): value is Record<string, string> {
  const index = TABLE_DESIGN.indexes[scope.index];
  const expected = [TABLE_DESIGN.partitionKey, TABLE_DESIGN.sortKey, index.partitionKey, index.sortKey];
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === expected.length &&
    expected.every((name) => {
      const part = (value as Record<string, unknown>)[name];
      return typeof part === 'string' && part.length > 0 && Buffer.byteLength(part) <= MAX_KEY_BYTES && !hasLoneSurrogate(part);
    }) &&
    (value as Record<string, string>)[index.partitionKey] === scope.partition
  );
}
