/**
 * EventBridge's PutEvents limits (docs/decisions/0308): at most 10 entries per call, and the
 * entries' total size under 256 KB, each entry counted as "Calculating PutEvents event entry
 * size" (EventBridge User Guide) counts it. A call over either is refused whole
 * (ValidationException), so the relay batches by both, and the local bus refuses what
 * EventBridge refuses. No SDK here: the outbox writers (every function) read the limits too.
 */
export const PUT_EVENTS_LIMITS = {
  entriesPerCall: 10,
  /** "The total entry size must be less than 256KB." */
  bytesPerCall: 256 * 1024,
} as const;

/** What the size of a PutEvents entry is computed from. */
export interface SizedEntry {
  readonly Source?: string;
  readonly DetailType?: string;
  readonly Detail?: string;
  readonly Resources?: readonly string[];
  readonly Time?: unknown;
}

const utf8Bytes = (text: string | undefined) => (text === undefined ? 0 : Buffer.byteLength(text, 'utf8'));

/** An entry's size as EventBridge counts it: 14 bytes for a Time, and the UTF-8 bytes of Source, DetailType, Detail and each resource. */
export function putEventsEntrySize(entry: SizedEntry): number {
  return (
    (entry.Time === undefined ? 0 : 14) +
    utf8Bytes(entry.Source) +
    utf8Bytes(entry.DetailType) +
    utf8Bytes(entry.Detail) +
    (entry.Resources ?? []).reduce((sum, resource) => sum + utf8Bytes(resource), 0)
  );
}

/** Whether the entry is too large for any call: it must be sent as a reference to where it is stored. */
export const tooLargeForACall = (entry: SizedEntry) => putEventsEntrySize(entry) >= PUT_EVENTS_LIMITS.bytesPerCall;

/**
 * The entries in order, cut into calls of at most PUT_EVENTS_LIMITS.entriesPerCall entries
 * whose sizes add up to less than PUT_EVENTS_LIMITS.bytesPerCall. Each entry must fit a call
 * alone (tooLargeForACall is false).
 */
export function putEventsCalls<T>(entries: readonly T[], sizeOf: (entry: T) => number): T[][] {
  const calls: T[][] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = sizeOf(entry);
    const current = calls.at(-1);
    if (!current || current.length === PUT_EVENTS_LIMITS.entriesPerCall || bytes + size >= PUT_EVENTS_LIMITS.bytesPerCall) {
      calls.push([entry]);
      bytes = size;
    } else {
      current.push(entry);
      bytes += size;
    }
  }
  return calls;
}

/**
 * The detail key of an event sent by reference: its outbox item's event id. The envelope keeps
 * the detail's scalar fields (what event patterns match, e.g. `change`) and the correlation id;
 * the consumer reads the whole detail from the outbox item (functions/lib/stored-event.ts).
 */
export const STORED_DETAIL_KEY = 'storedDetailOf';

/**
 * How long an outbox item sent by reference is kept: as long as its event may wait in a
 * dead-letter queue (14 days) to be redriven, and a day more. Others are kept a day (the
 * stream's retention), since nothing reads them after the relay.
 */
export const STORED_DETAIL_RETENTION_SECONDS = 15 * 24 * 60 * 60;
