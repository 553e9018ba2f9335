/** What ChartFigure and its lazily loaded chart module (SeriesChart) both know of a chart. */

/** Lines for amounts that cross each other; bars for counts, stacked bars for parts of a whole. */
export type ChartKind = 'line' | 'bar' | 'stacked-bar';

/** What the chart module draws: each row's axis tick, full label and values, in the order of the series. */
export interface ChartPoint {
  tick: string;
  label: string;
  values: number[];
}

/**
 * Each series' colour, in order, every one at least 3:1 against white (WCAG 1.4.11), and a
 * line's dash: lines differ by their dash too, so that colour is not the only difference.
 */
export const SERIES_STYLES: ReadonlyArray<{ color: string; dash?: string }> = [
  { color: '#0f766e' },
  { color: '#1d4ed8', dash: '6 3' },
  { color: '#b91c1c', dash: '2 3' },
  { color: '#6d28d9', dash: '10 3 2 3' },
];
