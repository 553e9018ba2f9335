import { PageHeading } from '../../../lib/components/PageHeading';
import { HeroActions } from './HeroActions';
import { MSG } from '../../../../../shared/messages';

const { hourlyPay, sameDayPay, noExperience } = MSG.landing;

export function LandingHero() {
  return (
    <section className="hero">
      <div className="hero__inner">
        <PageHeading className="hero__title">Local odd jobs, done today</PageHeading>
        <p className="hero__lead">
          Earn money helping neighbours with moving, cleaning, yard work and more, or get a hand with the tasks on your own list.
        </p>
        <ul className="hero__claims" aria-label="Why people earn with OddJobs">
          <li>{hourlyPay}</li>
          <li>{sameDayPay}</li>
          <li>{noExperience}</li>
        </ul>
        <HeroActions />
      </div>
    </section>
  );
}
