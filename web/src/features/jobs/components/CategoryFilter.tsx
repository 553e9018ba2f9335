import { JOB_CATEGORIES, type JobCategory } from '../../../../../shared/categories';

interface CategoryFilterProps {
  selected: JobCategory | null;
  onSelect(category: JobCategory | null): void;
}

const CHOICES: ReadonlyArray<{ label: string; category: JobCategory | null }> = [
  { label: 'All', category: null },
  ...JOB_CATEGORIES.map((category) => ({ label: category, category })),
];

/** The category chips above the grid: one category at a time, or All. */
export function CategoryFilter({ selected, onSelect }: CategoryFilterProps) {
  return (
    <div role="group" aria-label="Filter by category" className="category-filter">
      {CHOICES.map(({ label, category }) => (
        <button
          key={label}
          type="button"
          className="category-chip"
          aria-pressed={category === selected}
          onClick={() => onSelect(category)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
