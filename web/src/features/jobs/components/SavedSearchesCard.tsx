import { MSG } from '../../../../../shared/messages';
import { EmptyState } from '../../../lib/components/EmptyState';
import { useSavedSearches } from '../hooks/useSavedSearches';

/** The worker's saved searches on the notification settings page (issue 46): what each alerts about, and Remove. */
export function SavedSearchesCard() {
  const { query, remove } = useSavedSearches(true);
  return (
    <section className="saved-searches" aria-labelledby="saved-searches-heading">
      <h3 id="saved-searches-heading">{MSG.search.savedSearchesTitle}</h3>
      <p className="saved-searches__hint">{MSG.search.savedSearchesHint}</p>
      {query.isPending ? (
        <p role="status">Loading...</p>
      ) : query.isError ? (
        <EmptyState title={MSG.backend.unexpected}>
          <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
            Try again
          </button>
        </EmptyState>
      ) : query.data.length === 0 ? (
        <p>{MSG.search.noSavedSearches}</p>
      ) : (
        <ul className="saved-searches__list">
          {query.data.map((search) => {
            const described = MSG.search.describe(search);
            return (
              <li key={search.id} className="saved-searches__item">
                <span>{described}</span>
                <button type="button" className="button button--secondary" aria-label={`${MSG.search.removeSavedSearch} ${described}`} onClick={() => void remove(search.id)}>
                  {MSG.search.removeSavedSearch}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
