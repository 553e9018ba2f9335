/**
 * EventBridge content filtering, for the local bus: a pattern matches when every field it
 * names matches. Leaf values are arrays of alternatives: literals, or { prefix }, { exists },
 * { 'anything-but' }, { numeric } is not used by our rules and is rejected loudly. `$or` lists
 * patterns of the same object, of which one must match.
 */
type Matcher = string | number | boolean | null | { prefix?: string; exists?: boolean; 'anything-but'?: unknown };

export function matchesPattern(pattern: Record<string, unknown>, event: Record<string, unknown>): boolean {
  return Object.entries(pattern).every(([field, expected]) => {
    if (field === '$or') {
      if (!Array.isArray(expected) || expected.length < 2) throw new Error('Invalid event pattern: $or takes an array of at least two patterns');
      return (expected as Record<string, unknown>[]).some((alternative) => matchesPattern(alternative, event));
    }
    const actual = event[field];
    if (Array.isArray(expected)) return matchesAlternatives(expected as Matcher[], actual);
    if (expected && typeof expected === 'object') {
      return actual !== null && typeof actual === 'object' && matchesPattern(expected as Record<string, unknown>, actual as Record<string, unknown>);
    }
    throw new Error(`Invalid event pattern at "${field}": leaf values must be arrays`);
  });
}

function matchesAlternatives(alternatives: Matcher[], actual: unknown): boolean {
  const values = Array.isArray(actual) ? actual : [actual];
  return alternatives.some((alternative) => {
    if (alternative === null || typeof alternative !== 'object') return values.some((value) => value === alternative);
    if ('exists' in alternative) return (actual !== undefined) === alternative.exists;
    if (actual === undefined) return false;
    if (alternative.prefix !== undefined) return values.some((value) => typeof value === 'string' && value.startsWith(alternative.prefix!));
    if ('anything-but' in alternative) {
      const excluded = Array.isArray(alternative['anything-but']) ? alternative['anything-but'] : [alternative['anything-but']];
      return values.every((value) => !excluded.includes(value));
    }
    throw new Error(`Unsupported event pattern operator: ${JSON.stringify(alternative)}`);
  });
}
