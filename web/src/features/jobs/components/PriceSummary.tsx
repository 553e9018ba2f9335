import { formatCents, quotePrice } from '../../../../../shared/money';

/** What posting costs, shown before paying (DECISIONS.md "Money and fees"). */
export function PriceSummary({ paymentCents }: { paymentCents: number }) {
  const quote = quotePrice(paymentCents);
  return (
    <section className="price-summary" aria-labelledby="price-summary-heading">
      <h2 id="price-summary-heading" className="price-summary__title">
        Cost summary
      </h2>
      <dl>
        <div className="price-summary__row">
          <dt>Job payment</dt>
          <dd>{formatCents(quote.payment)}</dd>
        </div>
        <div className="price-summary__row">
          <dt>Service fee</dt>
          <dd>{formatCents(quote.platformFee)}</dd>
        </div>
        <div className="price-summary__row price-summary__row--total">
          <dt>Total</dt>
          <dd>{formatCents(quote.postedAmount)}</dd>
        </div>
      </dl>
      <p className="price-summary__note">No worker fees! The worker receives the full job payment.</p>
    </section>
  );
}
