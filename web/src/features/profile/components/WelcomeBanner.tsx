import { Link, useLocation, useSearchParams } from 'react-router-dom';
import type { Role } from '../../../../../shared/roles';
import { WELCOME_PAGES, WELCOME_PARAM } from '../../../lib/auth/destinations';
import { useAuth } from '../../../lib/auth/useAuth';

const NEXT_STEP: Record<Role, { text: string; link: { to: string; label: string } }> = {
  worker: {
    text: 'Open jobs near you are listed below. Add your skills to your profile so posters see what you are good at.',
    link: { to: '/profile', label: 'Complete your profile' },
  },
  poster: {
    text: 'Describe the task, set a fixed price and a date: workers nearby can apply within minutes.',
    link: { to: '/post-job', label: 'Post your first job' },
  },
  admin: {
    text: 'You are the administrator of the platform. The Admin Tools bar above takes you to the admin dashboard.',
    link: { to: '/admin-dashboard', label: 'Open the admin dashboard' },
  },
};

/**
 * Greets a new user on the dashboard their first sign-in leads to (?welcome=true, spec 1 §2).
 * Dismissing it removes the query, so a reload or a shared link does not greet again.
 */
export function WelcomeBanner() {
  const { profile } = useAuth();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  if (!profile || params.get(WELCOME_PARAM) !== 'true' || !WELCOME_PAGES.has(pathname)) return null;

  const firstName = profile.name.split(/\s+/)[0] ?? profile.name;
  const next = NEXT_STEP[profile.role];

  function dismiss() {
    setParams(
      (current) => {
        current.delete(WELCOME_PARAM);
        return current;
      },
      { replace: true },
    );
    // The dismiss button is gone: keyboard users continue from the page's heading.
    document.querySelector<HTMLElement>('main h1')?.focus();
  }

  return (
    <section className="welcome-banner" aria-label="Welcome">
      <div className="welcome-banner__inner">
        <div>
          {/* Not a heading: the banner sits above the page's <h1>. */}
          <p className="welcome-banner__title">Welcome to OddJobs, {firstName}!</p>
          <p className="welcome-banner__text">{next.text}</p>
          <Link to={next.link.to} className="welcome-banner__link">
            {next.link.label}
          </Link>
        </div>
        <button type="button" className="welcome-banner__dismiss" aria-label="Dismiss welcome message" onClick={dismiss}>
          ×
        </button>
      </div>
    </section>
  );
}
