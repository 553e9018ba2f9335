import type { ReactNode } from 'react';
import { PageHeading } from '../../../../lib/components/PageHeading';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

interface LegalDocumentProps {
  title: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
  /** Shown after the sections (the privacy policy's 'Your Trust Matters' box). */
  closing?: ReactNode;
}

/**
 * A legal page: title, the last-updated line (today's date, as the spec shows it), and the
 * numbered sections, each with its own heading so they can be navigated by heading.
 */
export function LegalDocument({ title, intro, sections, closing }: LegalDocumentProps) {
  return (
    <article className="page page--narrow legal">
      <PageHeading>{title}</PageHeading>
      <p className="legal__updated">Last updated: {longDate.format(new Date())}</p>
      <div className="legal__intro">{intro}</div>
      <ol className="legal__sections">
        {sections.map((section, index) => (
          <li key={section.title} className="legal__section">
            <h2>
              {index + 1}. {section.title}
            </h2>
            {section.body}
          </li>
        ))}
      </ol>
      {closing}
    </article>
  );
}
