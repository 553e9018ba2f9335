import * as z from './zod.js';

/**
 * Rules for text that users send, in one place: the server applies them at its edge and the
 * browser's forms share them.
 */

/** A UTF-16 surrogate without its pair: not text in any encoding, and refused everywhere it travels (URIError, UTF-8). */
const LONE_SURROGATE = /\p{Surrogate}/u;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * True when any string in a parsed JSON value (keys included) holds a lone surrogate. It
 * walks with its own stack, not recursion, so no depth of nesting can overflow it.
 */
export function containsLoneSurrogate(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (hasLoneSurrogate(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child); // not push(...item): a huge array would pass too many arguments
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (hasLoneSurrogate(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/**
 * The one cleaning rule for every free-text field users write (profiles, jobs, applications,
 * reviews…): markup tags are dropped with their text kept, then any stray angle bracket,
 * script-scheme prefix and inline handler pattern, and the text is cut to 10000 characters
 * (spec 1 §5 "Profile update", applied everywhere).
 */
export function sanitizeText(text: string): string {
  return text
    .replace(/<\/?[a-z!][^<>]*>/gi, '')
    .replace(/[<>]/g, '')
    .replace(/\b(?:javascript|vbscript|data)\s*:/gi, '')
    .replace(/\bon[a-z]+\s*=/gi, '')
    .slice(0, 10_000);
}

/** A string cleaned by `sanitizeText`; `typeMessage` answers a value that is not a string. */
const cleanedText = (typeMessage?: string) => z.pipe(z.string(typeMessage), z.transform(sanitizeText));

/** A free-text field: a string cleaned by `sanitizeText` and trimmed, then held to the field's own checks. */
export const freeText = (...checks: z.core.$ZodCheck<string>[]) => z.pipe(cleanedText(), z.string().check(z.trim(), ...checks));

/** A free-text field that must be given and not blank once trimmed, `required` saying so either way. */
export const requiredText = (required: string, ...checks: z.core.$ZodCheck<string>[]) =>
  z.pipe(cleanedText(required), z.string().check(z.trim(), z.minLength(1, required), ...checks));
