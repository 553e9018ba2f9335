declare module 'zipcodes' {
  export interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string): ZipCode | undefined;
  export function lookupByName(city: string, state: string): ZipCode[];
  /** The zip code whose centre is nearest (a scan of the whole dataset, a few milliseconds). */
  export function lookupByCoords(latitude: number, longitude: number): ZipCode | null;
}
