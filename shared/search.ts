/**
 * Search text, the same on both sides: the server's engine (functions/search/search-engine.ts)
 * folds a job's words and a query with `foldText`, and a card marks the words a search matched
 * with `markedParts`. Case- and accent-insensitive.
 */

/** Lower case without accents ("Café" -> "cafe"), one character of the text at a time, so positions can be mapped back. */
function foldCharacter(character: string): string {
  return character.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function foldText(text: string): string {
  return Array.from(text, foldCharacter).join('');
}

/** The radius choices of a search near a place, in miles (issue 46). */
export const SEARCH_RADIUS_MILES = [5, 10, 25, 50] as const;
export type SearchRadius = (typeof SEARCH_RADIUS_MILES)[number];

/** How many searches a worker may keep (issue 46). */
export const MAX_SAVED_SEARCHES = 10;

export interface MarkedPart {
  text: string;
  /** A word (or part of one) the search matched: the card shows it in <mark>. */
  marked: boolean;
}

/**
 * The text cut into parts, those holding one of `terms` (the words of the job a search matched,
 * as the server answers them) marked. Matching is on folded text, so "Café" is marked for "cafe".
 */
export function markedParts(text: string, terms: readonly string[]): MarkedPart[] {
  // The folded text, and for each of its characters the index in `text` it came from.
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const character of Array.from(text)) {
    const fold = foldCharacter(character);
    for (let i = 0; i < fold.length; i++) origin.push(index);
    folded += fold;
    index += character.length;
  }
  origin.push(text.length);

  const ranges: Array<[number, number]> = [];
  for (const term of new Set(terms.map(foldText))) {
    if (term.length < 2) continue;
    for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + term.length)) {
      ranges.push([origin[at]!, origin[at + term.length]!]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);

  const parts: MarkedPart[] = [];
  let cursor = 0;
  for (const [start, end] of ranges) {
    if (end <= cursor) continue;
    const from = Math.max(start, cursor);
    if (from > cursor) parts.push({ text: text.slice(cursor, from), marked: false });
    parts.push({ text: text.slice(from, end), marked: true });
    cursor = end;
  }
  if (cursor < text.length) parts.push({ text: text.slice(cursor), marked: false });
  // Neighbouring marked parts (two terms side by side) read as one mark.
  return parts.reduce<MarkedPart[]>((merged, part) => {
    const last = merged.at(-1);
    if (last && last.marked === part.marked) last.text += part.text;
    else merged.push({ ...part });
    return merged;
  }, []);
}
