import { Suspense, type MouseEvent } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { LoadingState } from '../../lib/components/LoadingState';
import { WelcomeBanner } from '../../features/profile';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

// Focus the main region without a hash change: the router would treat "#main" as a navigation.
function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/** The page frame: skip link, header and footer (unless `bare`), the welcome banner, and the lazily loaded screen. */
export function Layout({ bare = false }: { bare?: boolean }) {
  const { pathname } = useLocation();
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to main content
      </a>
      {bare ? null : <SiteHeader />}
      <main id="main" className="main" tabIndex={-1}>
        <WelcomeBanner />
        <Suspense fallback={<LoadingState label="Loading..." />}>
          {/* A new path is a new screen: no state carries over from /jobs/a to /jobs/b. */}
          <Outlet key={pathname} />
        </Suspense>
      </main>
      {bare ? null : <SiteFooter />}
    </div>
  );
}
