import { JobBoard } from '../components/jobs/JobBoard';
import { Benefits } from '../components/landing/Benefits';
import { CategoryGrid } from '../components/landing/CategoryGrid';
import { HowItWorks } from '../components/landing/HowItWorks';
import { LandingHero } from '../components/landing/LandingHero';
import { PlatformStats } from '../components/landing/PlatformStats';
import { Testimonials } from '../components/landing/Testimonials';
import { useAuth } from '../hooks/useAuth';
import { useScrollToHash } from '../hooks/useScrollToHash';

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
