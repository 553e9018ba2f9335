import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import type { JobCategory } from '../../shared/categories.js';
import { foldText } from '../../shared/search.js';

/**
 * The search engine of open jobs (issue 46, docs/decisions/0325): MiniSearch, in the memory of
 * the search function, over one document per open job. Everything that decides what a query
 * finds is here: the fields and their weights, how words are cut and varied, how far a typo
 * may go. Pure: no reads (functions/search/search-documents.ts feeds it).
 */

/** What the engine indexes of an open job. */
export interface SearchDocument {
  id: string;
  title: string;
  /** The category and the skills: ranked between the title and the description. */
  tags: string;
  description: string;
  /** City and state, as the card shows them. */
  location: string;
  category: JobCategory;
  posterId: string;
  createdAt: string;
}

type SearchField = 'title' | 'tags' | 'description' | 'location' | 'parts';

/**
 * Title over category and skills over description and place (the issue's order); `parts` holds
 * the endings of the title's, category's and skills' words, so a part of one ("washer") finds it
 * ("Dishwasher"), below a whole word of the title.
 */
const FIELD_BOOST: Record<SearchField, number> = { title: 3, tags: 2, parts: 1.5, description: 1, location: 1 };
const WORD_FIELDS: SearchField[] = ['title', 'tags', 'description', 'location'];

/** How a result matched at best: a title word, a category or skill (or a part of a title's word), or only the description or place. */
export type MatchTier = 0 | 1 | 2;

const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'with', 'my', 'me', 'we', 'our', 'your', 'you', 'i']);

/** Shortest part of a word a query word may be ("mov" finds "moving", "ash" finds "dishwasher"). */
const MIN_PART_LENGTH = 3;

const tokenize = (text: string): string[] => foldText(text).split(/[^a-z0-9]+/);

/** A query's words as the engine takes them: folded, without stop words and one-letter words. */
function queryTerm(token: string): string | null {
  const word = foldText(token);
  return word.length < 2 || STOP_WORDS.has(word) ? null : word;
}

/**
 * A document's word as indexed: the word and its singular ("gutters" is also "gutter", so a typo
 * of the singular is one edit away); in `parts`, every ending of three letters or more but the
 * word itself. Words are matched by their start, so endings match inside a word. Only the title,
 * category and skills have parts, as those are short.
 */
function documentTerms(token: string, field?: string): string[] | null {
  const word = queryTerm(token);
  if (word === null) return null;
  if (field === 'parts') return Array.from({ length: Math.max(word.length - MIN_PART_LENGTH, 0) }, (_, i) => word.slice(i + 1));
  return word.length >= 4 && word.endsWith('s') && !word.endsWith('ss') ? [word, word.slice(0, -1)] : [word];
}

/**
 * Typos forgiven in a query word: one from four letters, two from six. A swapped pair of
 * letters ("gutetr") is two edits to the engine's distance, so words of six letters get two.
 */
export function typosForgiven(term: string): number | false {
  if (term.length >= 6) return 2;
  if (term.length >= 4) return 1;
  return false;
}

export interface EngineMatch {
  id: string;
  score: number;
  tier: MatchTier;
  /** The indexed words (or endings) the query matched: the card marks them. */
  terms: string[];
}

/** Edits between two words (Levenshtein): which of the terms a query word matched is the one it meant. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The terms to mark: for each query word, the matched terms it is closest to (one it starts is
 * closest). A word of a title is indexed with its endings, and a typo's reach can take in
 * a longer ending too ("washer" also matches "shwasher", two edits away): only the nearest is meant.
 */
function termsToMark(result: SearchResult): string[] {
  const marked = new Set<string>();
  for (const word of result.queryTerms) {
    const costs = result.terms.map((term) => (term.startsWith(word) ? 0 : editDistance(word, term)));
    const best = Math.min(...costs);
    result.terms.forEach((term, i) => costs[i] === best && marked.add(term));
  }
  return [...marked];
}

function tierOf(result: SearchResult): MatchTier {
  const fields = new Set(Object.values(result.match).flat());
  if (fields.has('title')) return 0;
  if (fields.has('tags') || fields.has('parts')) return 1;
  return 2;
}

/** The open jobs' index: documents added, replaced and removed as jobs change. */
export class JobSearchIndex {
  private readonly engine = new MiniSearch<SearchDocument>({
    fields: Object.keys(FIELD_BOOST),
    extractField: (document, field) => (field === 'parts' ? `${document.title} ${document.tags}` : document[field as keyof SearchDocument]),
    tokenize,
    processTerm: documentTerms,
    searchOptions: { processTerm: queryTerm, boost: FIELD_BOOST },
  });

  private readonly documents = new Map<string, SearchDocument>();

  get size(): number {
    return this.documents.size;
  }

  get(id: string): SearchDocument | undefined {
    return this.documents.get(id);
  }

  /** Every document, in no particular order. */
  all(): IterableIterator<SearchDocument> {
    return this.documents.values();
  }

  put(document: SearchDocument): void {
    if (this.documents.has(document.id)) this.engine.replace(document);
    else this.engine.add(document);
    this.documents.set(document.id, document);
  }

  remove(id: string): void {
    if (!this.documents.delete(id)) return;
    this.engine.discard(id);
  }

  /**
   * The documents matching every word of `text` (and `accept`), best first. A word matches a
   * whole word, the start of one, or one with the typos it is forgiven; or a part of a title's,
   * category's or skill's word, taken as it is (a typo's reach among parts finds noise: "leak"
   * is one edit from "lean" in "clean").
   */
  match(text: string, accept: (document: SearchDocument) => boolean = () => true): EngineMatch[] {
    const words = tokenize(text).filter((token) => queryTerm(token) !== null);
    if (words.length === 0) return [];
    const query: Query = {
      combineWith: 'AND',
      queries: words.map((word) => ({
        combineWith: 'OR',
        queries: [
          { queries: [word], fields: WORD_FIELDS, prefix: word.length >= MIN_PART_LENGTH, fuzzy: typosForgiven(word) },
          { queries: [word], fields: ['parts'], prefix: true },
        ],
      })),
    };
    return this.engine
      .search(query, { filter: (result) => accept(this.documents.get(String(result.id))!) })
      .map((result) => ({ id: String(result.id), score: result.score, tier: tierOf(result), terms: termsToMark(result) }));
  }
}
