import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SERIES_STYLES, type ChartKind, type ChartPoint } from './chart-series';

/** The plot's height: the same as its placeholder's in charts.css, so nothing moves when it is drawn. */
const HEIGHT = 220;
const TICK = { fontSize: 12, fill: '#5b6473' };

interface SeriesChartProps {
  kind: ChartKind;
  points: ChartPoint[];
  /** The series' names, in the order of each point's values. */
  labels: string[];
  format(value: number): string;
  formatTick(value: number): string;
}

/**
 * The picture of a ChartFigure, drawn with recharts; loaded only where a chart is shown. Its
 * figures are ChartFigure's table: the picture is not focusable (no accessibility layer) and not
 * animated, and at 375 px its axes keep to a few ticks.
 */
export default function SeriesChart({ kind, points, labels, format, formatTick }: SeriesChartProps) {
  const axes = (
    <>
      <CartesianGrid vertical={false} stroke="#d9dee5" />
      <XAxis dataKey="tick" tick={TICK} interval="preserveStartEnd" minTickGap={20} tickLine={false} />
      <YAxis tick={TICK} tickFormatter={formatTick} width={56} allowDecimals={false} tickCount={4} axisLine={false} tickLine={false} />
      <Tooltip formatter={(value) => format(Number(value))} labelFormatter={(_, payload) => payload[0]?.payload?.label ?? ''} isAnimationActive={false} />
    </>
  );
  // Room on the right for the last tick's label, which the axis centres on the last period.
  const margin = { top: 8, right: 16, bottom: 0, left: 0 };
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      {kind === 'line' ? (
        <LineChart data={points} margin={margin} accessibilityLayer={false}>
          {axes}
          {labels.map((label, i) => (
            <Line
              key={label}
              name={label}
              dataKey={(point: ChartPoint) => point.values[i]}
              stroke={SERIES_STYLES[i]!.color}
              strokeDasharray={SERIES_STYLES[i]!.dash}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      ) : (
        <BarChart data={points} margin={margin} accessibilityLayer={false}>
          {axes}
          {labels.map((label, i) => (
            <Bar
              key={label}
              name={label}
              dataKey={(point: ChartPoint) => point.values[i]}
              fill={SERIES_STYLES[i]!.color}
              stackId={kind === 'stacked-bar' ? 'total' : undefined}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
