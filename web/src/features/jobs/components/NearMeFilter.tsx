import { useId } from 'react';
import { MSG } from '../../../../../shared/messages';
import { SEARCH_RADIUS_MILES, type SearchRadius } from '../../../../../shared/search';

interface NearMeFilterProps {
  /** Whether the grid is sorted by distance from the searcher. */
  active: boolean;
  radius: SearchRadius | null;
  onToggle(): void;
  onRadius(radius: SearchRadius | null): void;
  /** While the browser is asked where it is. */
  locating: boolean;
}

/** "Near me" (issue 46): the grid nearest first, with the distance on each card, within a radius when one is picked. */
export function NearMeFilter({ active, radius, onToggle, onRadius, locating }: NearMeFilterProps) {
  const radiusId = useId();
  return (
    <div className="near-me" role="group" aria-label={MSG.search.nearMe}>
      <button type="button" className="category-chip" aria-pressed={active} onClick={onToggle} disabled={locating}>
        {MSG.search.nearMe}
      </button>
      {active ? (
        <>
          <label htmlFor={radiusId} className="visually-hidden">
            {MSG.search.radiusLabel}
          </label>
          <select id={radiusId} className="near-me__radius" value={radius ?? ''} onChange={(event) => onRadius(event.target.value ? (Number(event.target.value) as SearchRadius) : null)}>
            <option value="">{MSG.search.anyDistance}</option>
            {SEARCH_RADIUS_MILES.map((miles) => (
              <option key={miles} value={miles}>
                {MSG.search.withinMiles(miles)}
              </option>
            ))}
          </select>
        </>
      ) : null}
      {locating ? <span className="near-me__status">{MSG.search.locating}</span> : null}
    </div>
  );
}
