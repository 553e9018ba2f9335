const PLACEHOLDER_CARDS = 6;

/** Grey cards in the grid's shape while the first page loads. */
export function JobGridSkeleton() {
  return (
    <div className="job-grid-skeleton">
      <p role="status" className="visually-hidden">
        Loading jobs...
      </p>
      <div className="job-grid" aria-hidden="true">
        {Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
          <div key={index} className="job-card job-card--skeleton">
            <div className="job-card__image job-card__image--placeholder skeleton" />
            <div className="job-card__body">
              <div className="skeleton skeleton--title" />
              <div className="skeleton skeleton--line" />
              <div className="skeleton skeleton--line skeleton--short" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
