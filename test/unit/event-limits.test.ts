import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PUT_EVENTS_LIMITS, putEventsCalls, putEventsEntrySize, tooLargeForACall } from '../../functions/lib/event-limits.js';

describe("PutEvents calls within EventBridge's limits", () => {
  it('counts an entry as EventBridge documents it: 14 bytes for a time, and UTF-8 bytes', () => {
    expect(putEventsEntrySize({ Source: 'oddjobs.jobs', DetailType: 'Job Posted', Detail: '{"t":"é"}', Time: new Date() })).toBe(14 + 12 + 10 + 10);
    expect(putEventsEntrySize({ Source: 'a', DetailType: 'b', Resources: ['arn:x', 'arn:yy'] })).toBe(1 + 1 + 5 + 6);
    expect(tooLargeForACall({ Source: 'a', DetailType: 'b', Detail: 'x'.repeat(PUT_EVENTS_LIMITS.bytesPerCall) })).toBe(true);
  });

  it('cuts entries, in order, into calls of at most ten whose sizes stay under 256 KB', () => {
    const fitting = fc.integer({ min: 1, max: PUT_EVENTS_LIMITS.bytesPerCall - 1 });
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 2_000 }), fitting), { maxLength: 60 }), (sizes) => {
        const calls = putEventsCalls(sizes, (size) => size);
        expect(calls.flat()).toEqual(sizes);
        for (const call of calls) {
          expect(call.length).toBeGreaterThan(0);
          expect(call.length).toBeLessThanOrEqual(PUT_EVENTS_LIMITS.entriesPerCall);
          expect(call.reduce((sum, size) => sum + size, 0)).toBeLessThan(PUT_EVENTS_LIMITS.bytesPerCall);
        }
      }),
    );
  });
});
