import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { AmazonLocationGeocoder, GeocodingFailed } from '../../functions/lib/geocoder.js';

/** Amazon Location's geocoder with its client's `send` answering as given (no network). */
function geocoderAnswering(send: () => Promise<unknown>): AmazonLocationGeocoder {
  const geocoder = new AmazonLocationGeocoder('test-index');
  Object.assign(geocoder['client'], { send });
  return geocoder;
}

const address = { street: '1 Main St', city: 'Austin', state: 'TX' };

describe("geocoding failures carry the spec's texts (spec 1 'External geocoding')", () => {
  it("answers a failed request with 'Geocoding request failed'", async () => {
    const failing = geocoderAnswering(() => Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })));
    const failure = await failing.geocode(address).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeocodingFailed);
    expect((failure as GeocodingFailed).message).toBe(MSG.location.geocodingRequestFailed);
  });

  it("answers null for an address it does not know ('Address not found' is the caller's), and 'Failed to geocode address' for an answer it cannot read", async () => {
    expect(await geocoderAnswering(() => Promise.resolve({ Results: [] })).geocode(address)).toBeNull();
    await expect(geocoderAnswering(() => Promise.resolve({ Results: [{ Place: { Geometry: { Point: [-97.7] } } }] })).geocode(address)).rejects.toThrow(MSG.location.geocodeFailed);
    expect(await geocoderAnswering(() => Promise.resolve({ Results: [{ Place: { Geometry: { Point: [-97.7, 30.3] } } }] })).geocode(address)).toEqual({ longitude: -97.7, latitude: 30.3 });
  });
});
