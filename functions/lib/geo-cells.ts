import ngeohash from 'ngeohash';
import { distanceMiles } from '../../shared/notifications.js';

/**
 * Geohash cover of a circle, for finding indexed points near a place with a few Query calls.
 *
 * Points are indexed under a partition of their precision-4 cell (about 24 × 12 miles) with
 * their precision-7 geohash first in the sort key, so every geohash prefix of length ≥ 4 is a
 * contiguous sort-key range of one partition. A circle is covered from precision 4 down:
 * a cell wholly inside is taken whole, a cell on the edge is split into its 32 children
 * until `finestPrecision`, where edge cells are taken as they are. Cells next to each other
 * in geohash order then merge into one range, so a cover is a handful of range queries.
 */
export const PARTITION_PRECISION = 4;
export const POINT_PRECISION = 7;

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** One Query: the partition's cell and an inclusive sort-key range. */
export interface CellRange {
  partitionCell: string;
  from: string;
  /** Past every key under the last cell ('~' sorts after the base-32 digits and '#'). */
  to: string;
}

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

/** Distance from the point to the nearest and farthest points of a cell's box. */
function cellReach(point: GeoPoint, cell: string): { near: number; far: number } {
  const [minLat, minLon, maxLat, maxLon] = ngeohash.decode_bbox(cell) as [number, number, number, number];
  const nearest = { latitude: clamp(point.latitude, minLat, maxLat), longitude: clamp(point.longitude, minLon, maxLon) };
  const farLat = Math.abs(point.latitude - minLat) > Math.abs(point.latitude - maxLat) ? minLat : maxLat;
  const farLon = Math.abs(point.longitude - minLon) > Math.abs(point.longitude - maxLon) ? minLon : maxLon;
  return { near: distanceMiles(point, nearest), far: distanceMiles(point, { latitude: farLat, longitude: farLon }) };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The clamped nearest point is not exactly the nearest on the sphere; over a few dozen miles
 * the error is far below this margin, so no cell holding a point in range is ever dropped.
 */
const EDGE_MARGIN = 1.01;

/** The geohash cells (of mixed precision, none overlapping) that cover the circle. */
export function coverCircle(center: GeoPoint, radiusMiles: number, finestPrecision: number): string[] {
  const latDelta = radiusMiles / 69;
  const lonDelta = radiusMiles / (69 * Math.max(0.01, Math.cos((center.latitude * Math.PI) / 180)));
  const start = ngeohash.bboxes(
    center.latitude - latDelta,
    center.longitude - lonDelta,
    center.latitude + latDelta,
    center.longitude + lonDelta,
    PARTITION_PRECISION,
  );
  const cover: string[] = [];
  const visit = (cell: string) => {
    const { near, far } = cellReach(center, cell);
    if (near > radiusMiles * EDGE_MARGIN) return;
    if (far <= radiusMiles || cell.length >= finestPrecision) {
      cover.push(cell);
      return;
    }
    for (const digit of BASE32) visit(cell + digit);
  };
  for (const cell of start) visit(cell);
  return cover.sort();
}

/** The cell that follows `cell` in geohash order at the same or a coarser level ('' past the end). */
function successor(cell: string): string {
  const last = BASE32.indexOf(cell.at(-1) ?? '');
  if (cell.length === 0) return '';
  if (last < BASE32.length - 1) return cell.slice(0, -1) + BASE32[last + 1];
  return successor(cell.slice(0, -1));
}

/** Whether `next` starts right where `cell` ends, so one range holds both. */
function follows(cell: string, next: string): boolean {
  const after = successor(cell);
  return after.length > 0 && next.startsWith(after) && /^0*$/.test(next.slice(after.length));
}

/** A cover as sort-key ranges, merged where cells touch, one partition per range. */
export function coverRanges(center: GeoPoint, radiusMiles: number, finestPrecision: number): CellRange[] {
  const ranges: Array<{ partitionCell: string; first: string; last: string }> = [];
  for (const cell of coverCircle(center, radiusMiles, finestPrecision)) {
    const partitionCell = cell.slice(0, PARTITION_PRECISION);
    const open = ranges.at(-1);
    if (open && open.partitionCell === partitionCell && follows(open.last, cell)) open.last = cell;
    else ranges.push({ partitionCell, first: cell, last: cell });
  }
  return ranges.map(({ partitionCell, first, last }) => ({ partitionCell, from: first, to: `${last}~` }));
}

export const pointCell = (point: GeoPoint): string => ngeohash.encode(point.latitude, point.longitude, POINT_PRECISION);
