import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { currentPosition } from '../../web/src/features/location/hooks/useLocationSettings.js';

/** A browser whose geolocation answers with `answer`, recording the options each request asked for. */
function stubBrowser(answer: (success: PositionCallback, failure: PositionErrorCallback) => void) {
  const asked: PositionOptions[] = [];
  vi.stubGlobal('window', { isSecureContext: true });
  vi.stubGlobal('navigator', {
    permissions: { query: () => Promise.resolve({ state: 'granted' }) },
    geolocation: {
      getCurrentPosition: (success: PositionCallback, failure: PositionErrorCallback, options: PositionOptions) => {
        asked.push(options);
        answer(success, failure);
      },
    },
  });
  return asked;
}

describe("the browser's position, as the location settings ask for it", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for high accuracy within 15 s, and takes a position the browser found in the last 5 minutes (spec 1 §7)', async () => {
    const asked = stubBrowser((success) => success({ coords: { latitude: 37.7749, longitude: -122.4194 } } as GeolocationPosition));
    await expect(currentPosition()).resolves.toEqual({ latitude: 37.7749, longitude: -122.4194 });
    expect(asked).toEqual([{ enableHighAccuracy: true, timeout: 15_000, maximumAge: 300_000 }]);
  });

  it('asks for a new fix when someone updates a stored location (they moved)', async () => {
    const asked = stubBrowser((success) => success({ coords: { latitude: 30.4, longitude: -97.74 } } as GeolocationPosition));
    await expect(currentPosition({ fresh: true })).resolves.toEqual({ latitude: 30.4, longitude: -97.74 });
    expect(asked).toEqual([{ enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 }]);
  });

  it("answers a timeout with the spec's text", async () => {
    stubBrowser((_, failure) => failure({ code: 3, message: 'Timeout expired' } as GeolocationPositionError));
    await expect(currentPosition()).rejects.toThrow(MSG.location.timedOut);
  });
});
