/**
 * Rules for text that users send, in one place: the server applies them at its edge and the
 * browser's forms share them.
 */

/** A UTF-16 surrogate without its pair: not text in any encoding, and refused everywhere it travels (URIError, UTF-8). */
const LONE_SURROGATE = /\p{Surrogate}/u;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** True when any string in a parsed JSON value (keys included) holds a lone surrogate. */
export function containsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return hasLoneSurrogate(value);
  if (Array.isArray(value)) return value.some(containsLoneSurrogate);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => hasLoneSurrogate(key) || containsLoneSurrogate(item));
  }
  return false;
}
