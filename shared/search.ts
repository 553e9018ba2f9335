/**
 * Search words, the same on both sides: the server indexes a job's words with this, and the
 * query is cut into words with it too. Case- and accent-insensitive.
 */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'with', 'my', 'me', 'we', 'our', 'your', 'you', 'i']);

export function searchWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 2 && !STOP_WORDS.has(word));
  return [...new Set(words)];
}

/** Shortest prefix indexed, so "clean" finds "cleaning" and "mov" finds "moving". */
export const MIN_PREFIX_LENGTH = 3;

export function prefixes(word: string): string[] {
  const out: string[] = [];
  for (let length = MIN_PREFIX_LENGTH; length < word.length; length++) out.push(word.slice(0, length));
  return out;
}

/** A category as an index term, distinct from any word: "Yard Work" -> "category:yard-work". */
export const categoryTerm = (category: string) => `category:${category.toLowerCase().replace(/\s+/g, '-')}`;
