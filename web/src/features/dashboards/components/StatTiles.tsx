/** A dashboard's numbers at a glance: one tile per label. */
export function StatTiles({ label, tiles }: { label: string; tiles: ReadonlyArray<{ label: string; value: string | number }> }) {
  return (
    <dl className="stat-grid" aria-label={label}>
      {tiles.map((tile) => (
        <div key={tile.label} className="stat-card">
          <dt>{tile.label}</dt>
          <dd>{tile.value}</dd>
        </div>
      ))}
    </dl>
  );
}
