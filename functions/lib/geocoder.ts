import { LocationClient, SearchPlaceIndexForPositionCommand, SearchPlaceIndexForTextCommand } from '@aws-sdk/client-location';
import { marketOf } from '../../shared/admin.js';
import { MSG } from '../../shared/messages.js';
import { optionalEnv } from './env.js';
import type { GeoPoint } from './geo-cells.js';
import { logger } from './logger.js';
import { US_STATE_CODES } from './us-states.js';

export interface PostalAddress {
  street?: string;
  city: string;
  state: string;
}

/**
 * The geocoding service could not be asked, or its answer not read: the spec's texts for the
 * two (MSG.location.geocodingRequestFailed, geocodeFailed). An address it does not know is no
 * failure: geocode() answers null ('Address not found').
 */
export class GeocodingFailed extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'GeocodingFailed';
  }
}

/** Where addresses and points are; "cannot tell" is null. */
export interface Geocoder {
  /** An address's coordinates; null when it is not found, GeocodingFailed when the service failed. */
  geocode(address: PostalAddress): Promise<GeoPoint | null>;
  /** The market ("City, ST") a point lies in (DECISIONS.md "Markets"): no street precision needed. */
  market(point: GeoPoint): Promise<string | null>;
}

/** Amazon Location Service's place index (provisioned by the CDK API stack); in AWS. */
export class AmazonLocationGeocoder implements Geocoder {
  private readonly client = new LocationClient({});
  constructor(private readonly placeIndexName: string) {}

  async geocode(address: PostalAddress): Promise<GeoPoint | null> {
    const request = new SearchPlaceIndexForTextCommand({
      IndexName: this.placeIndexName,
      Text: [address.street, address.city, address.state].filter(Boolean).join(', '),
      FilterCountries: ['USA'],
      MaxResults: 1,
    });
    const answer = await this.client.send(request).catch((error: unknown) => {
      throw new GeocodingFailed(MSG.location.geocodingRequestFailed, { cause: error });
    });
    const point = answer.Results?.[0]?.Place?.Geometry?.Point;
    if (point === undefined) return null;
    if (point.length !== 2) throw new GeocodingFailed(MSG.location.geocodeFailed);
    return { longitude: point[0]!, latitude: point[1]! };
  }

  market(point: GeoPoint): Promise<string | null> {
    return this.search('market', async () => {
      const { Results } = await this.client.send(
        new SearchPlaceIndexForPositionCommand({ IndexName: this.placeIndexName, Position: [point.longitude, point.latitude], MaxResults: 1 }),
      );
      const place = Results?.[0]?.Place;
      // The index names states in full ("Texas"); markets, like the zip table, use the postal code.
      const state = place?.Region && (US_STATE_CODES[place.Region] ?? place.Region);
      return place?.Municipality && state ? marketOf(`${place.Municipality}, ${state}`) : null;
    });
  }

  /** A market is a nicety (the admin's Locations tab): a failed search is logged and answers null. */
  private async search<T>(operation: string, run: () => Promise<T | null>): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      logger.warn('Amazon Location search failed', { operation, error });
      return null;
    }
  }
}

/**
 * The local stack's geocoder, from the `zipcodes` dataset with no network: a five-digit zip in
 * the address wins, otherwise the centre of the city's zip codes. The 4.6 MB dataset is loaded
 * on first use and is never in a Lambda bundle (FUNCTION_BUNDLE leaves it out): in AWS every
 * function that geocodes has a place index.
 */
export class ZipCodeGeocoder implements Geocoder {
  async geocode(address: PostalAddress): Promise<GeoPoint | null> {
    const zipcodes = await loadZipCodes();
    const zip = /\b(\d{5})\b/.exec(`${address.street ?? ''} ${address.city} ${address.state}`)?.[1];
    const byZip = zip ? zipcodes.lookup(zip) : undefined;
    if (byZip) return { latitude: byZip.latitude, longitude: byZip.longitude };
    const places = zipcodes.lookupByName(address.city.trim(), address.state.trim());
    if (places.length === 0) return null;
    const sum = places.reduce((acc, place) => ({ latitude: acc.latitude + place.latitude, longitude: acc.longitude + place.longitude }), { latitude: 0, longitude: 0 });
    return { latitude: round(sum.latitude / places.length), longitude: round(sum.longitude / places.length) };
  }

  /** The city of the nearest zip code centre. */
  async market(point: GeoPoint): Promise<string | null> {
    const code = (await loadZipCodes()).lookupByCoords(point.latitude, point.longitude);
    return code ? marketOf(`${code.city}, ${code.state}`) : null;
  }
}

const loadZipCodes = async () => (await import('zipcodes')).default;

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** Amazon Location where a place index is configured (AWS), the zip table otherwise (the local stack). */
export function createGeocoder(): Geocoder {
  const placeIndex = optionalEnv('placeIndexName');
  return placeIndex ? new AmazonLocationGeocoder(placeIndex) : new ZipCodeGeocoder();
}
