import { useSearchParams } from 'react-router-dom';
import { isJobCategory } from '../../../../../shared/categories';
import type { JobFilter } from '../api/fetch-job-page';

/**
 * The job grid's search words and category, kept in the address (`?q=…&category=…`) so a
 * filtered grid can be linked to (the landing category cards do) and survives a reload.
 */
export function useJobFilterParams(): [JobFilter, (next: JobFilter) => void] {
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const filter: JobFilter = { q: (params.get('q') ?? '').trim(), category: isJobCategory(category) ? category : null };

  function setFilter(next: JobFilter): void {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const [name, value] of [['q', next.q.trim()], ['category', next.category ?? '']] as const) {
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
