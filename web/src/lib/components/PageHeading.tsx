import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

const APP_NAME = 'OddJobs';

interface PageHeadingProps {
  children: ReactNode;
  /** The document title; defaults to the heading when it is plain text. */
  title?: string;
  className?: string;
}

/**
 * A screen's <h1>. After an in-app navigation to another page it takes focus, so screen-reader
 * and keyboard users start on the new page instead of wherever the old one left them. The first
 * page load (location key "default") keeps the browser's own focus order, skip link first; a
 * change of the query alone (a search, a filter chip) is not a new page and leaves focus alone.
 */
export function PageHeading({ children, title, className }: PageHeadingProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const focusedPath = useRef<string | null>(null);
  const { key, pathname, hash } = useLocation();
  const documentTitle = title ?? (typeof children === 'string' ? children : null);

  useEffect(() => {
    document.title = documentTitle ? `${documentTitle} | ${APP_NAME}` : APP_NAME;
  }, [documentTitle]);

  useEffect(() => {
    const isNewPage = focusedPath.current !== pathname;
    focusedPath.current = pathname;
    // A link to a section (Find Jobs' "#available-jobs") scrolls there: the focus must not scroll back to the top.
    if (isNewPage && key !== 'default') heading.current?.focus({ preventScroll: hash !== '' });
  }, [key, pathname, hash]);

  return (
    <h1 ref={heading} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
