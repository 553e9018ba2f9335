import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../../functions/lib/http.js';

const nested = (levels: number, open: string, inner: string, close: string) => open.repeat(levels) + inner + close.repeat(levels);

describe('the body depth check', () => {
  it('counts arrays and objects inside one another, up to the limit and past it', () => {
    for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
      expect(nestsDeeperThan(nested(MAX_BODY_DEPTH, open!, '1', close!), MAX_BODY_DEPTH)).toBe(false);
      expect(nestsDeeperThan(nested(MAX_BODY_DEPTH + 1, open!, '1', close!), MAX_BODY_DEPTH)).toBe(true);
      expect(nestsDeeperThan(nested(1_000_000, open!, '1', close!), MAX_BODY_DEPTH)).toBe(true);
    }
  });

  it('counts depth, not width: siblings do not add up', () => {
    expect(nestsDeeperThan(`[${'[1],'.repeat(100_000)}[1]]`, 2)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":1},"c":{"d":[2]}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":1},"c":{"d":[2]}}', 2)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ text: '['.repeat(1000) }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: `"\\${'{'.repeat(1000)}` }), 1)).toBe(false);
    expect(nestsDeeperThan(`["\\\\",${'['.repeat(3)}]]]]`, 3)).toBe(true);
  });
});
