import { Link } from 'react-router-dom';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__about">
          <p className="site-footer__brand">OddJobs</p>
          <p>Local odd jobs and short gigs: earn nearby, or get a hand with your list.</p>
          <p>Payments are processed securely by Stripe.</p>
        </div>
        <nav aria-label="Footer" className="site-footer__nav">
          <ul className="site-footer__links">
            <li>
              <Link to="/#jobs">Find Jobs</Link>
            </li>
            <li>
              <Link to="/post-job">Post a Job</Link>
            </li>
            <li>
              <Link to="/terms-of-service">Terms of Service</Link>
            </li>
            <li>
              <Link to="/privacy-policy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/sign-up?role=admin">Admin</Link>
            </li>
          </ul>
        </nav>
        <p className="site-footer__copyright">© {new Date().getFullYear()} OddJobs</p>
      </div>
    </footer>
  );
}
