import { useCallback, useEffect, useRef, useState } from 'react';
import type { NotificationPreferences, OwnProfile } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { LOCATION_FRESHNESS } from '../../../../../shared/notifications';

import { saveLocation } from '../api/save-location';
import { saveNotificationPreferences } from '../api/save-notification-preferences';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** The browser's zone name, sent with every location: alert days and quiet hours run in it. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Coordinates as the settings card shows them: 4 decimals (spec 2 §9). */
export const formatCoordinates = ({ latitude, longitude }: Coordinates) => `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 2 §4: missing, fresh, due for a suggested update (7 days), or stale (30 days). */
export function locationFreshness(profile: Pick<OwnProfile, 'latitude' | 'locationUpdatedAt'>, now: number): 'missing' | 'fresh' | 'suggest' | 'stale' {
  if (profile.latitude === null || !profile.locationUpdatedAt) return 'missing';
  const age = now - Date.parse(profile.locationUpdatedAt);
  if (age > LOCATION_FRESHNESS.staleAfterDays * DAY_MS) return 'stale';
  return age > LOCATION_FRESHNESS.suggestUpdateAfterDays * DAY_MS ? 'suggest' : 'fresh';
}

/** Spec 2 §8: a failed position request, by the words of the browser's error. */
export function geolocationErrorText(error: unknown): string {
  const codeWords: Record<number, string> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };
  const code = typeof error === 'object' && error !== null && 'code' in error ? Number((error as { code: unknown }).code) : 0;
  const text = `${error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error) ? String((error as { message: unknown }).message) : ''} ${codeWords[code] ?? ''}`.toLowerCase();
  if (text.includes('denied')) return MSG.location.accessDenied;
  if (text.includes('unavailable')) return MSG.location.unavailable;
  if (text.includes('timeout') || text.includes('timed out')) return MSG.location.timedOut;
  if (text.includes('https') || text.includes('secure')) return MSG.location.needsSecureConnection;
  return MSG.location.currentLocationFailed;
}

class GeolocationRefused extends Error {}

/**
 * What the position request asks of the browser (spec 1 §7): high accuracy, 15 s to answer, and
 * a position the browser found in the last 5 minutes is good enough (no new fix, no new wait) —
 * except when someone with a stored location asks to update it: they moved, and want where they
 * are now.
 */
export const positionOptions = ({ fresh }: { fresh: boolean }): PositionOptions => ({ enableHighAccuracy: true, timeout: 15_000, maximumAge: fresh ? 0 : 5 * 60_000 });

/** The device's position (high accuracy), or a GeolocationRefused with the spec's text. */
export async function currentPosition(options: { fresh: boolean } = { fresh: false }): Promise<Coordinates> {
  if (!('geolocation' in navigator)) throw new GeolocationRefused(MSG.location.notSupported);
  if (!window.isSecureContext) throw new GeolocationRefused(MSG.location.needsHttps);
  const permission = await navigator.permissions?.query({ name: 'geolocation' }).catch(() => null);
  if (permission?.state === 'denied') throw new GeolocationRefused(MSG.location.permissionDenied);
  return new Promise((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
      (error) => reject(new GeolocationRefused(geolocationErrorText(error))),
      positionOptions(options),
    ),
  );
}

/** The text for a failed position request (GeolocationRefused carries the spec's own). */
export const positionErrorText = (error: unknown, fallback: string) => (error instanceof GeolocationRefused ? error.message : fallback);

/**
 * Saving the location and the preferences: each answers the saved profile, which the app
 * then shows everywhere (header, dashboard badge) by reloading it into the session.
 */
export function useLocationSettings() {
  const api = useApi();
  const { refreshProfile } = useAuth();
  const [saving, setSaving] = useState<'location' | 'preferences' | null>(null);

  const run = useCallback(
    async <T,>(what: 'location' | 'preferences', save: () => Promise<T>): Promise<T> => {
      setSaving(what);
      try {
        const result = await save();
        await refreshProfile();
        return result;
      } finally {
        setSaving(null);
      }
    },
    [refreshProfile],
  );

  return {
    saving,
    saveCoordinates: (point: Coordinates) => run('location', () => saveLocation(api, { ...point, timeZone: browserTimeZone() })),
    saveZip: (zip: string) => run('location', () => saveLocation(api, { zip, timeZone: browserTimeZone() })),
    savePreferences: (preferences: NotificationPreferences) => run('preferences', () => saveNotificationPreferences(api, preferences, browserTimeZone())),
  };
}

/**
 * Quiet hours run in the zone of the browser the user is in: when a signed-in user with quiet
 * hours on opens the app in another zone than the one saved (they travelled, or saved before
 * posters' zones were kept), the preferences are saved again with this browser's zone, once.
 */
export function useQuietHoursZoneKeptCurrent(profile: OwnProfile | null): void {
  const api = useApi();
  const { refreshProfile } = useAuth();
  const tried = useRef<string | null>(null);
  useEffect(() => {
    const zone = browserTimeZone();
    if (!profile?.notificationPreferences.quietHours.enabled || profile.timeZone === zone || tried.current === profile.id) return;
    tried.current = profile.id;
    void saveNotificationPreferences(api, profile.notificationPreferences, zone)
      .then(() => refreshProfile())
      // Saved with the preferences next time; nothing to show for it now.
      .catch(() => undefined);
  }, [api, profile, refreshProfile]);
}
