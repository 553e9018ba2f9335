import type { ReactNode } from 'react';

/** One titled section of a dashboard; `id` is its anchor. */
export function DashboardSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} className="section-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
