import { Link } from 'react-router-dom';
import { LANDING_CATEGORY_CARDS } from '../../../../../shared/categories';

/** The eight high-paying categories; each opens the jobs section filtered to its category. */
export function CategoryGrid() {
  return (
    <section className="section" aria-labelledby="categories-heading">
      <div className="section__inner">
        <h2 id="categories-heading">High-Paying Categories</h2>
        <p className="section__lead">Pick what you are good at and see the open jobs in it.</p>
        <ul className="category-grid">
          {LANDING_CATEGORY_CARDS.map((card) => (
            <li key={card.title}>
              <Link
                className="category-card"
                to={{ pathname: '/', search: `?${new URLSearchParams({ category: card.category })}`, hash: '#jobs' }}
                preventScrollReset
              >
                <span className="category-card__title">{card.title}</span>
                {card.hot ? <span className="category-card__hot">Hot</span> : null}
                <span className="category-card__browse" aria-hidden="true">
                  See jobs →
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
