import { JobBoard } from '../../jobs';
import { Benefits } from '../components/Benefits';
import { CategoryGrid } from '../components/CategoryGrid';
import { HowItWorks } from '../components/HowItWorks';
import { LandingHero } from '../components/LandingHero';
import { PlatformStats } from '../components/PlatformStats';
import { Testimonials } from '../components/Testimonials';
import { useAuth } from '../../../lib/auth/useAuth';
import { useScrollToHash } from '../../../lib/hooks/useScrollToHash';

export default function LandingScreen() {
  const { status } = useAuth();
  // "Find Jobs" and the category cards link to /#jobs.
  useScrollToHash();

  return (
    <>
      <LandingHero />
      <PlatformStats />
      <CategoryGrid />
      <section id="jobs" className="section" aria-labelledby="jobs-heading">
        <div className="section__inner">
          <h2 id="jobs-heading">Open Jobs</h2>
          <p className="section__lead">Fixed-price gigs posted by people in your area.</p>
          <JobBoard feed={status === 'loading' ? null : status === 'signedIn' ? 'personal' : 'public'} />
        </div>
      </section>
      <Benefits />
      <HowItWorks />
      <Testimonials />
    </>
  );
}
