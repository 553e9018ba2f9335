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
 * A screen's <h1>. After an in-app navigation it takes focus, so screen-reader and keyboard
 * users start on the new page instead of wherever the old one left them. The first page load
 * (location key "default") keeps the browser's own focus order, skip link first.
 */
export function PageHeading({ children, title, className }: PageHeadingProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  const documentTitle = title ?? (typeof children === 'string' ? children : null);

  useEffect(() => {
    document.title = documentTitle ? `${documentTitle} | ${APP_NAME}` : APP_NAME;
  }, [documentTitle]);

  useEffect(() => {
    if (key !== 'default') heading.current?.focus();
  }, [key]);

  return (
    <h1 ref={heading} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
