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

/** True when any string in a parsed JSON value (keys included) holds a lone surrogate. */
export function containsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return hasLoneSurrogate(value);
  if (Array.isArray(value)) return value.some(containsLoneSurrogate);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => hasLoneSurrogate(key) || containsLoneSurrogate(item));
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
