import { useSearchParams } from 'react-router-dom';
import { isJobCategory } from '../../../../../shared/categories';
import { SEARCH_RADIUS_MILES, type SearchRadius } from '../../../../../shared/search';
import type { JobFilter, NearOrigin } from '../api/fetch-job-page';

const isRadius = (miles: number): miles is SearchRadius => (SEARCH_RADIUS_MILES as readonly number[]).includes(miles);
const isNearOrigin = (value: string | null): value is NearOrigin => value === 'me' || value === 'here';

/**
 * The job grid's search words, category and place, kept in the address (`?q=…&category=…&near=me&radius=10`)
 * so a filtered grid can be linked to (the landing category cards do) and survives a reload. The
 * browser's own coordinates are never put in it (`near=here` asks the browser again).
 */
export function useJobFilterParams(): [JobFilter, (next: JobFilter) => void] {
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const near = params.get('near');
  const radius = Number(params.get('radius'));
  const filter: JobFilter = {
    q: (params.get('q') ?? '').trim(),
    category: isJobCategory(category) ? category : null,
    near: isNearOrigin(near) ? near : null,
    radius: isNearOrigin(near) && isRadius(radius) ? radius : null,
  };

  function setFilter(next: JobFilter): void {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        const values = [
          ['q', next.q.trim()],
          ['category', next.category ?? ''],
          ['near', next.near ?? ''],
          ['radius', next.near && next.radius ? String(next.radius) : ''],
        ] as const;
        for (const [name, value] of values) {
          if (value) updated.set(name, value);
          else updated.delete(name);
        }
        return updated;
      },
      // Narrowing the grid is not a new page: no history entry to step back through, no jump to the top.
      { replace: true, preventScrollReset: true },
    );
  }

  return [filter, setFilter];
}
