import { Suspense, lazy } from 'react';
import { SERIES_STYLES, type ChartKind, type ChartPoint } from './chart-series';
import '../../styles/charts.css';

// The chart library (recharts) is in this module's lazy chunk alone: only a screen that shows a
// chart downloads it, after its figures are already on screen
// (docs/decisions/0318-charts-load-where-shown-and-carry-their-figures-as-a-table.md).
const SeriesChart = lazy(() => import('./SeriesChart'));

/** One line or bar set of a chart, and its column in the chart's table. */
export interface ChartSeries<Row> {
  label: string;
  value(row: Row): number;
}

export interface ChartFigureProps<Row> {
  /** What the chart shows: the figure's caption, and the name of the picture and of its table. */
  caption: string;
  kind: ChartKind;
  /** Oldest first. */
  rows: readonly Row[];
  /** The rows' periods: the table's first column (`heading`, a row's full `label`) and the axis's short `tick`. */
  period: { heading: string; label(row: Row): string; tick(row: Row): string };
  /** At most SERIES_STYLES.length. */
  series: ReadonlyArray<ChartSeries<Row>>;
  /** A value as the table and the tooltip write it. */
  format(value: number): string;
  /** A value as the vertical axis writes it: short, for a phone's width. */
  formatTick(value: number): string;
}

/**
 * A chart with its text alternative (issue 48): a figure whose caption names it, the picture (an
 * image to assistive technology, named by the caption, drawn once the chart library has loaded)
 * with a legend in the page's own text, and every figure it draws in a real table under
 * "Show the figures as a table".
 */
export function ChartFigure<Row>({ caption, kind, rows, period, series, format, formatTick }: ChartFigureProps<Row>) {
  const points: ChartPoint[] = rows.map((row) => ({ tick: period.tick(row), label: period.label(row), values: series.map((line) => line.value(row)) }));
  return (
    <figure className="chart">
      <figcaption className="chart__caption">{caption}</figcaption>
      {series.length > 1 ? (
        <ul className="chart__legend">
          {series.map((line, i) => (
            <li key={line.label}>
              <LegendSwatch kind={kind} index={i} />
              {line.label}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="chart__plot" role="img" aria-label={`${caption}. The figures are in the table below.`}>
        <Suspense fallback={null}>
          <SeriesChart kind={kind} points={points} labels={series.map((line) => line.label)} format={format} formatTick={formatTick} />
        </Suspense>
      </div>
      <details className="chart__figures">
        <summary>Show the figures as a table</summary>
        {/* Focusable, so that a keyboard can scroll a table wider than a phone (axe: scrollable-region-focusable). */}
        <div className="chart__table" tabIndex={0} role="region" aria-label={`${caption}: figures`}>
          <table>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{period.heading}</th>
                {series.map((line) => (
                  <th key={line.label} scope="col">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.label}>
                  <th scope="row">{point.label}</th>
                  {point.values.map((value, i) => (
                    <td key={series[i]!.label}>{format(value)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** A series' line (its colour and dash) or bar colour beside its name. */
function LegendSwatch({ kind, index }: { kind: ChartKind; index: number }) {
  const { color, dash } = SERIES_STYLES[index]!;
  return (
    <svg className="chart__swatch" viewBox="0 0 24 12" aria-hidden="true">
      {kind === 'line' ? <line x1="0" y1="6" x2="24" y2="6" stroke={color} strokeWidth="3" strokeDasharray={dash} /> : <rect x="4" y="0" width="16" height="12" fill={color} />}
    </svg>
  );
}
