import { PAYOUT_OPTIONS } from '../../../../../shared/payments';

/** The fast-payout options of a fully set-up worker account (spec 1 §9). */
export function PayoutOptions() {
  return (
    <section className="section-block" aria-labelledby="payout-options-heading">
      <h2 id="payout-options-heading">Payout Options</h2>
      <ul className="payout-options">
        {PAYOUT_OPTIONS.map((option) => (
          <li key={option.id} className="card payout-option">
            <h3>{option.name}</h3>
            <dl className="payout-option__facts">
              <dt>Timing</dt>
              <dd>{option.timing}</dd>
              <dt>Fee</dt>
              <dd>{option.fee}</dd>
              <dt>Requirement</dt>
              <dd>{option.requirement}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
