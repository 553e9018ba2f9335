import { useEffect, useRef, useState } from 'react';
import { LngLatBounds, Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl, type StyleSpecification } from 'maplibre-gl';
import type { Feature, Polygon } from 'geojson';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import type { JobCardSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import type { BrowserPosition } from '../api/fetch-job-page';

// The worker's file is named by a computed URL MapLibre's bundle cannot point the build at: this import makes Vite ship it.
setWorkerUrl(workerUrl);

/** No tiles can be fetched offline (the local stack): the pins and the ring on a plain background. */
const PLAIN_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e8eef3' } }],
};

const METERS_PER_MILE = 1609.344;

/** A circle of `miles` around `center` as a polygon of 64 points (the ring of a radius search). */
function ring(center: BrowserPosition, miles: number): Feature<Polygon> {
  const earthMeters = 6_371_000;
  const angular = (miles * METERS_PER_MILE) / earthMeters;
  const [lat, lng] = [(center.latitude * Math.PI) / 180, (center.longitude * Math.PI) / 180];
  const points = Array.from({ length: 65 }, (_, i) => {
    const bearing = (i / 64) * 2 * Math.PI;
    const pointLat = Math.asin(Math.sin(lat) * Math.cos(angular) + Math.cos(lat) * Math.sin(angular) * Math.cos(bearing));
    const pointLng = lng + Math.atan2(Math.sin(bearing) * Math.sin(angular) * Math.cos(lat), Math.cos(angular) - Math.sin(lat) * Math.sin(pointLat));
    return [(pointLng * 180) / Math.PI, (pointLat * 180) / Math.PI];
  });
  return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [points] } };
}

/** Whether this browser has WebGL, which MapLibre draws with. */
function canDrawMaps(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

export interface JobMapProps {
  jobs: readonly JobCardSummary[];
  /** Where the searcher is, when the search is near them: the map's centre and its ring's. */
  center: BrowserPosition | null;
  radiusMiles: number | null;
  /** Amazon Location's style (AWS); the plain background when absent. */
  styleUrl: string | null;
  onSelect(jobId: string): void;
}

/**
 * The map of a search's jobs (issue 46), loaded only when someone opens it: a pin per job at the
 * centre of its area (never its address), a ring for the radius. Each pin is a button: it opens
 * the job's card below the map. The list beside it stays the way keyboard and screen-reader
 * users read the same jobs.
 */
export default function JobMap({ jobs, center, radiusMiles, styleUrl, onSelect }: JobMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const [drawable] = useState(canDrawMaps);

  useEffect(() => {
    if (!container.current || !drawable) return;
    const map = new MapLibreMap({ container: container.current, style: styleUrl ?? PLAIN_STYLE, center: [-97.74, 30.27], zoom: 9, attributionControl: styleUrl ? {} : false });
    map.addControl(new NavigationControl({ showCompass: false }));
    const located = jobs.filter((job) => job.area);
    const bounds = new LngLatBounds();
    for (const job of located) {
      const pin = document.createElement('button');
      pin.type = 'button';
      pin.className = 'map-pin';
      pin.setAttribute('aria-label', MSG.search.mapPin(job.title, job.distanceMiles !== undefined ? MSG.search.distance(job.distanceMiles) : ''));
      pin.addEventListener('click', () => onSelect(job.id));
      const at: [number, number] = [job.area!.longitude, job.area!.latitude];
      new Marker({ element: pin }).setLngLat(at).addTo(map);
      bounds.extend(at);
    }
    if (center) bounds.extend([center.longitude, center.latitude]);
    if (center && radiusMiles) {
      const circle = ring(center, radiusMiles);
      for (const [lng, lat] of circle.geometry.coordinates[0]!) bounds.extend([lng!, lat!]);
      map.on('load', () => {
        map.addSource('radius', { type: 'geojson', data: circle });
        map.addLayer({ id: 'radius-fill', type: 'fill', source: 'radius', paint: { 'fill-color': '#0f766e', 'fill-opacity': 0.08 } });
        map.addLayer({ id: 'radius-line', type: 'line', source: 'radius', paint: { 'line-color': '#0f766e', 'line-width': 2 } });
      });
    }
    if (!bounds.isEmpty()) map.fitBounds(bounds, { padding: 40, maxZoom: 13, animate: false });
    map.on('error', () => undefined); // a tile or style that fails to load leaves the pins; it is not worth a toast
    return () => map.remove();
  }, [jobs, center, radiusMiles, styleUrl, onSelect, drawable]);

  // No WebGL in this browser: the list holds every job found.
  if (!drawable) return <p className="job-map__failed">{MSG.search.mapLoadFailed}</p>;
  return (
    <div className="job-map">
      <div ref={container} className="job-map__canvas" role="region" aria-label={MSG.search.mapLabel} />
      <p className="job-map__note">{MSG.search.mapApproximate}</p>
    </div>
  );
}
