import type { JobCardSummary, Page } from '../../shared/api.js';
import type { JobCategory } from '../../shared/categories.js';
import { MSG } from '../../shared/messages.js';
import { distanceMiles } from '../../shared/notifications.js';
import type { SearchRadius } from '../../shared/search.js';
import { badRequest } from '../lib/errors.js';
import type { GeoPoint } from '../lib/geo-cells.js';
import { jobCardOf, listJobsByStatus, toJobCard } from '../jobs/jobs.js';
import { currentOpenJobs } from './open-jobs-index.js';
import type { SearchDocument } from './search-engine.js';

export interface JobSearch {
  text?: string;
  category?: JobCategory;
  /** Where the searcher is: distances are shown, nearer first; within `radiusMiles` only, when given. */
  near?: { point: GeoPoint; radiusMiles?: SearchRadius };
  excludePosterId?: string;
  limit: number;
  cursor?: string;
}

/** A search's page cursor: how many results came before. */
const OFFSET_CURSOR = /^[0-9]{1,6}$/;

interface Ranked {
  document: SearchDocument;
  tier: number;
  score: number;
  terms: string[];
  miles?: number;
}

/**
 * The order of a search's results (issue 46): how the words matched (a title's word over a
 * category's or skill's over the description's), then nearer first where the searcher gave a
 * place (jobs of no known place last), then the engine's score, then newest.
 */
function compareRanked(a: Ranked, b: Ranked): number {
  return (
    a.tier - b.tier ||
    (a.miles ?? Infinity) - (b.miles ?? Infinity) ||
    b.score - a.score ||
    b.document.createdAt.localeCompare(a.document.createdAt)
  );
}

/**
 * Open jobs for the grids. No words, category or place: the open-jobs list, newest first (one
 * indexed read a page). Otherwise the search engine's answer (issue 46): every word found in
 * the job as a word, the start or a part of one, or with a forgiven typo; then the category;
 * then the radius; cards carry the distance, the words matched and the job's area.
 */
export async function searchOpenJobs(search: JobSearch): Promise<Page<JobCardSummary>> {
  const text = search.text?.trim() ?? '';
  if (text === '' && !search.category && !search.near) {
    return listJobsByStatus('open', { limit: search.limit, cursor: search.cursor, excludePosterId: search.excludePosterId, listedOnly: true }, (job) => toJobCard(job, jobCardOf(job)));
  }
  if (search.cursor !== undefined && !OFFSET_CURSOR.test(search.cursor)) throw badRequest(MSG.backend.invalidCursor);
  const offset = Number(search.cursor ?? 0);

  const jobs = await currentOpenJobs();
  const milesTo = (document: SearchDocument): number | undefined => {
    const area = jobs.entry(document.id)?.area;
    return search.near && area ? Math.round(distanceMiles(search.near.point, area) * 10) / 10 : undefined;
  };
  const accept = (document: SearchDocument) => {
    if (search.category && document.category !== search.category) return false;
    if (search.excludePosterId && document.posterId === search.excludePosterId) return false;
    const radius = search.near?.radiusMiles;
    if (radius === undefined) return true;
    const miles = milesTo(document);
    return miles !== undefined && miles <= radius;
  };
  const ranked: Ranked[] =
    text === ''
      ? [...jobs.index.all()].filter(accept).map((document) => ({ document, tier: 0, score: 0, terms: [], miles: milesTo(document) }))
      : jobs.index.match(text, accept).map(({ id, tier, score, terms }) => {
          const document = jobs.index.get(id)!;
          return { document, tier, score, terms, miles: milesTo(document) };
        });
  ranked.sort(compareRanked);

  const page = ranked.slice(offset, offset + search.limit);
  return {
    items: page.map(({ document, terms, miles }) => {
      const entry = jobs.entry(document.id)!;
      return {
        ...toJobCard(document, entry.card),
        ...(miles !== undefined ? { distanceMiles: miles } : {}),
        ...(terms.length ? { matchedWords: terms } : {}),
        ...(entry.area ? { area: entry.area } : {}),
      };
    }),
    nextCursor: offset + search.limit < ranked.length ? String(offset + search.limit) : null,
  };
}
