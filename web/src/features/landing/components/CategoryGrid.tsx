import { Link } from 'react-router-dom';
import { LANDING_CATEGORY_CARDS } from '../../../../../shared/categories';
import { earningsRangeText } from '../../../../../shared/earnings-ranges';
import { useCategoryEarnings } from '../api/fetch-category-earnings';

/**
 * The eight high-paying categories, each with what its jobs pay; each opens the jobs section
 * filtered to its category. The cards link at once: their ranges follow when read, and a card
 * whose range could not be read links without one.
 */
export function CategoryGrid() {
  const earnings = useCategoryEarnings();
  const rangeOf = (category: string) => earnings.data?.items.find((row) => row.category === category);
  return (
    <section className="section" aria-labelledby="categories-heading">
      <div className="section__inner">
        <h2 id="categories-heading">High-Paying Categories</h2>
        <p className="section__lead">Pick what you are good at and see the open jobs in it.</p>
        <ul className="category-grid">
          {LANDING_CATEGORY_CARDS.map((card) => {
            const earning = rangeOf(card.category);
            return (
              <li key={card.title}>
                <Link
                  className="category-card"
                  to={{ pathname: '/', search: `?${new URLSearchParams({ category: card.category })}`, hash: '#jobs' }}
                  preventScrollReset
                >
                  <span className="category-card__title">{card.title}</span>
                  {card.hot ? <span className="category-card__hot">Hot</span> : null}
                  {earning ? (
                    <span className="category-card__earnings">{earningsRangeText(earning.range)}</span>
                  ) : earnings.isPending ? (
                    // Holds the line the range will take, so that the cards do not grow under the reader.
                    <span className="category-card__earnings" aria-hidden="true">
                      {'\u00a0'}
                    </span>
                  ) : null}
                  <span className="category-card__browse" aria-hidden="true">
                    See jobs →
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
