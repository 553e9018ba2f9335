import { LocationClient, SearchPlaceIndexForTextCommand } from '@aws-sdk/client-location';
import zipcodes from 'zipcodes';
import { marketOf } from '../../shared/admin.js';
import { logger } from './logger.js';
import { optionalEnv } from './env.js';

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** Turns an address into coordinates, or null when it cannot (failure is not an error). */
export interface Geocoder {
  geocode(address: { street?: string; city: string; state: string }): Promise<GeoPoint | null>;
}

/** Amazon Location Service place index (provisioned by the CDK API stack). */
export class AmazonLocationGeocoder implements Geocoder {
  private readonly client = new LocationClient({});
  constructor(private readonly placeIndexName: string) {}

  async geocode(address: { street?: string; city: string; state: string }): Promise<GeoPoint | null> {
    const { Results } = await this.client.send(
      new SearchPlaceIndexForTextCommand({
        IndexName: this.placeIndexName,
        Text: [address.street, address.city, address.state].filter(Boolean).join(', '),
        FilterCountries: ['USA'],
        MaxResults: 1,
      }),
    );
    const point = Results?.[0]?.Place?.Geometry?.Point;
    return point && point.length === 2 ? { longitude: point[0]!, latitude: point[1]! } : null;
  }
}

/**
 * An embedded US geocoder from the `zipcodes` dataset, with no network: a five-digit zip in
 * the address wins; otherwise the centre of the city's zip codes. Street-level precision is
 * not needed: nearby-job matching works in miles.
 */
export class OfflineUsGeocoder implements Geocoder {
  async geocode(address: { street?: string; city: string; state: string }): Promise<GeoPoint | null> {
    const zip = /\b(\d{5})\b/.exec(`${address.street ?? ''} ${address.city} ${address.state}`)?.[1];
    const byZip = zip ? zipcodes.lookup(zip) : undefined;
    if (byZip) return { latitude: byZip.latitude, longitude: byZip.longitude };
    const places = zipcodes.lookupByName(address.city.trim(), address.state.trim());
    if (places.length === 0) return null;
    const sum = places.reduce((acc, place) => ({ latitude: acc.latitude + place.latitude, longitude: acc.longitude + place.longitude }), { latitude: 0, longitude: 0 });
    return { latitude: round(sum.latitude / places.length), longitude: round(sum.longitude / places.length) };
  }
}

/**
 * The market (city, state) of a point: the city of the nearest zip code centre in the embedded
 * US dataset, locally and in AWS alike (a worker's market needs no street precision).
 */
export function nearestMarket(point: GeoPoint): string | null {
  const code = zipcodes.lookupByCoords(point.latitude, point.longitude);
  return code ? marketOf(`${code.city}, ${code.state}`) : null;
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** Tries each geocoder in turn; errors are logged and the next one is asked. */
export class FallbackGeocoder implements Geocoder {
  constructor(private readonly geocoders: Geocoder[]) {}

  async geocode(address: { street?: string; city: string; state: string }): Promise<GeoPoint | null> {
    for (const geocoder of this.geocoders) {
      try {
        const point = await geocoder.geocode(address);
        if (point) return point;
      } catch (error) {
        logger.warn('geocoder failed', { geocoder: geocoder.constructor.name, error });
      }
    }
    return null;
  }
}

/** Amazon Location in AWS (when a place index is configured), the offline dataset as fallback and locally. */
export function createGeocoder(): Geocoder {
  const placeIndex = optionalEnv('placeIndexName');
  const offline = new OfflineUsGeocoder();
  return new FallbackGeocoder(placeIndex ? [new AmazonLocationGeocoder(placeIndex), offline] : [offline]);
}
