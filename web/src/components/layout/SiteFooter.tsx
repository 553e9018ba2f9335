import { Link } from 'react-router-dom';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p className="site-footer__brand">OddJobs</p>
        <p>Payments are processed securely by Stripe.</p>
        <nav aria-label="Footer">
          <ul className="site-footer__links">
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
      </div>
    </footer>
  );
}
