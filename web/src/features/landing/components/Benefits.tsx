import { MSG } from '../../../../../shared/messages';

const BENEFITS = [
  {
    title: MSG.landing.hourlyPay,
    text: 'Typical earnings on local jobs. Every job shows its fixed price before you apply, so you know exactly what you will make.',
  },
  {
    title: MSG.landing.sameDayPay,
    text: 'The poster pays upfront when the job is posted, and the money is released to you as soon as the work is done.',
  },
  {
    title: MSG.landing.noExperience,
    text: 'Carrying boxes, mowing lawns, assembling furniture: if you are reliable and friendly, there is work for you.',
  },
] as const;

/** Why workers choose the platform: average pay, same-day pay, no experience needed (spec 1 §1). */
export function Benefits() {
  return (
    <section className="section" aria-labelledby="benefits-heading">
      <div className="section__inner">
        <h2 id="benefits-heading">Why Work With OddJobs</h2>
        <ul className="feature-grid">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className="feature-card">
              <h3 className="feature-card__title">{benefit.title}</h3>
              <p>{benefit.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
