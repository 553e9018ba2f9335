/** The 10 job categories (spec 1 §9). A job's category is always one of these. */
export const JOB_CATEGORIES = [
  'Moving',
  'Cleaning',
  'Yard Work',
  'Handyman',
  'Assembly',
  'Pet Care',
  'Event Help',
  'Home Projects',
  'Delivery',
  'Other',
] as const;

export type JobCategory = (typeof JOB_CATEGORIES)[number];

export function isJobCategory(value: string): value is JobCategory {
  return (JOB_CATEGORIES as readonly string[]).includes(value);
}

/**
 * The eight marketing cards of the landing page (spec 1 §1). They are groupings, not
 * categories: each links to the jobs section filtered to the category it maps to
 * (DECISIONS.md "Categories").
 */
export const LANDING_CATEGORY_CARDS: ReadonlyArray<{ title: string; category: JobCategory; hot: boolean }> = [
  { title: 'Moving & Delivery', category: 'Moving', hot: true },
  { title: 'Home Cleaning', category: 'Cleaning', hot: true },
  { title: 'Yard Work', category: 'Yard Work', hot: false },
  { title: 'Handyman Tasks', category: 'Handyman', hot: true },
  { title: 'Furniture Assembly', category: 'Assembly', hot: false },
  { title: 'Pet Care', category: 'Pet Care', hot: false },
  { title: 'Event Setup', category: 'Event Help', hot: false },
  { title: 'Home Projects', category: 'Home Projects', hot: false },
];
