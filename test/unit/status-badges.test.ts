import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const styles = readFileSync(new URL('../../web/src/styles.css', import.meta.url), 'utf8');

/** The declarations of the rule for exactly `selector` in the app's stylesheet, or null. */
function ruleOf(selector: string): string | null {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  return new RegExp(`(?:^|\\n)${escaped}\\s*\\{([^}]*)\\}`).exec(styles)?.[1]?.replace(/\s+/g, ' ').trim() ?? null;
}

describe('job status badges (spec 2 §9 "Job status colours")', () => {
  it('draws completed and paid distinctly, and each apart from open and assigned', () => {
    const rules = ['open', 'assigned', 'completed', 'paid'].map((status) => ruleOf(`.badge--${status}`));
    expect(rules.every((rule) => rule !== null && /background:/.test(rule) && /color:/.test(rule))).toBe(true);
    expect(new Set(rules).size).toBe(4);
  });
});
