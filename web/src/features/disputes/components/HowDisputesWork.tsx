import { MSG } from '../../../../../shared/messages';

/** The Dispute Center's explainer card (spec 2 §2): review process, notifications, response time, privacy. */
export function HowDisputesWork() {
  return (
    <aside className="card" aria-labelledby="how-disputes-work">
      <h2 id="how-disputes-work">{MSG.disputes.howDisputesWork}</h2>
      <ul className="bullets">
        <li>Our admin team reviews every dispute and may ask both sides for details in the dispute thread.</li>
        <li>The other party is notified, and you are notified of every update and of the resolution.</li>
        <li>{MSG.disputes.responseTime}</li>
        <li>Only you, the other party and our admin team can read the dispute and its thread.</li>
      </ul>
    </aside>
  );
}
