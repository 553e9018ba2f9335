import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app/App';
import { configureAuth, keptSessionNeedsRefresh, mayKeepSession, prefetchAmplify } from './lib/auth/session';
import { BootScreen } from './app/BootScreen';
import { preloadSignedInControls } from './app/layout/SiteHeader';
import { loadRuntimeConfig } from './lib/config';
import { preloadScreen } from './app/router';
import './styles.css';
import './styles/jobs.css';
import './styles/shell.css';
import './styles/payments.css';
import './styles/notifications.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

// What the first screen needs is asked for beside /config.json: its chunk, and when a session is
// kept, the header's signed-in controls (both already modulepreloaded by the early entry in a
// build: importing them here runs them as soon as they arrive), and Amplify if the kept tokens
// need a refresh (fresh ones are sent as stored, without it).
preloadScreen(window.location.pathname);
if (mayKeepSession()) {
  if (keptSessionNeedsRefresh()) prefetchAmplify();
  preloadSignedInControls();
}

/** Resolves in a task of its own, after the one that is running. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

root.render(<BootScreen failed={false} />);
loadRuntimeConfig().then(
  async (config) => {
    // The configuration is mostly in before this entry has run (the early entry fetched it), so
    // the app started in the entry's own task: on a phone, one long task of the entry's
    // evaluation and the app's start (its router, query client and reads). Two shorter ones now.
    await nextTask();
    configureAuth(config);
    const start = startApp(config);
    // A transition: React renders the app in slices that yield to the browser (on a phone its
    // first render was one task of a few hundred milliseconds), while the boot screen stays.
    startTransition(() => root.render(<App {...start} />));
  },
  (error: unknown) => {
    console.error('Could not load /config.json', error);
    root.render(<BootScreen failed />);
  },
);
