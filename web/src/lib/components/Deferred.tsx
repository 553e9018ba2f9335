import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';

/** Runs `callback` in the browser's next idle period (at the latest after `timeoutMs`); the returned function cancels it. */
function whenIdle(callback: () => void, timeoutMs: number): () => void {
  // Safari has no requestIdleCallback: a timer after the current work stands in for it.
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = window.setTimeout(callback, 1);
    return () => window.clearTimeout(timer);
  }
  const handle = window.requestIdleCallback(callback, { timeout: timeoutMs });
  return () => window.cancelIdleCallback(handle);
}

/** How long a deferred part waits at most for an idle period. */
const IDLE_TIMEOUT_MS = 1_000;

/**
 * A part of a screen that is not on its first screenful, rendered after the first one: in the
 * browser's first idle time after it (at most a second later) or as soon as it is scrolled near
 * the viewport, whichever comes first, and as a transition, which React renders in slices that
 * yield to input. On a phone the first render of a whole dashboard, with the reads its
 * components start on mount, was one task of several hundred milliseconds (issue 37); this way
 * what is in view commits first and the rest follows in short tasks.
 *
 * Until then a placeholder of the part's likely height holds its place, so nothing below it
 * moves into view and out again. `now` renders it with the rest (a link to an anchor inside it).
 */
export function Deferred({ now = false, children }: { now?: boolean; children: ReactNode }) {
  const [shown, setShown] = useState(now);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown) return;
    const show = () => startTransition(() => setShown(true));
    const cancelIdle = whenIdle(show, IDLE_TIMEOUT_MS);
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && show(), { rootMargin: '200px' });
    if (placeholder.current) observer.observe(placeholder.current);
    return () => {
      cancelIdle();
      observer.disconnect();
    };
  }, [shown]);
  if (shown || now) return children;
  return <div ref={placeholder} className="deferred-placeholder" />;
}
