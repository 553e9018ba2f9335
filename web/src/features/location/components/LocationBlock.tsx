import { Alert, Button, Flex, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { distanceMiles, LOCATION_FRESHNESS } from '../../../../../shared/notifications';
import { apiErrorText } from '../../../lib/api/client';
import { useAuth } from '../../../lib/auth/useAuth';
import { currentPosition, formatCoordinates, locationFreshness, positionErrorText, useLocationSettings, type Coordinates } from '../hooks/useLocationSettings';
import { useNow } from '../../../lib/hooks/useNow';
import { useToast } from '../../../lib/toast/useToast';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';

/**
 * The location part of 'Location and Job Notifications' (spec 2 §2): 'Quick Setup Required'
 * while none is stored, Get Current Location, then 'Location Set - Update?' (or 'Update
 * Location' once stale) with 'Location Set Successfully' and the coordinates to 4 decimals.
 * A move of more than 0.5 miles from the stored point is confirmed first.
 */
export function LocationBlock({ onSaved }: { onSaved?: () => void }) {
  const { profile } = useAuth();
  const toast = useToast();
  const settings = useLocationSettings();
  const [locating, setLocating] = useState(false);
  const [pending, setPending] = useState<{ point: Coordinates; miles: number } | null>(null);
  const now = useNow(60 * 60_000);
  if (!profile) return null;
  const freshness = locationFreshness(profile, now);
  const stored = profile.latitude !== null && profile.longitude !== null ? { latitude: profile.latitude, longitude: profile.longitude } : null;

  async function save(point: Coordinates) {
    setPending(null);
    try {
      await settings.saveCoordinates(point);
      toast.success(MSG.location.updated);
      onSaved?.();
    } catch (error) {
      toast.error(apiErrorText(error, MSG.location.updateFailed));
    }
  }

  async function locate() {
    setLocating(true);
    try {
      // Updating a stored location asks for a new fix; a first one may be a few minutes old.
      const point = await currentPosition({ fresh: stored !== null });
      const miles = stored ? distanceMiles(stored, point) : 0;
      if (miles > LOCATION_FRESHNESS.confirmChangeMiles) setPending({ point, miles });
      else await save(point);
    } catch (error) {
      toast.error(positionErrorText(error, MSG.location.currentLocationFailed));
    } finally {
      setLocating(false);
    }
  }

  const label = freshness === 'missing' ? MSG.location.getCurrentLocation : freshness === 'stale' ? MSG.location.updateLocation : MSG.location.locationSetUpdate;
  return (
    <Flex direction="column" gap="small">
      {stored ? (
        <Alert variation="success" heading={MSG.location.locationSetSuccessfully}>
          <Text as="span" data-testid="stored-coordinates">
            {formatCoordinates(stored)}
          </Text>
          {freshness === 'stale' ? <Text as="span"> · older than {LOCATION_FRESHNESS.staleAfterDays} days</Text> : null}
        </Alert>
      ) : (
        <Alert variation="warning" heading={MSG.location.quickSetupRequired}>
          {MSG.location.quickSetupHint}
        </Alert>
      )}
      <Button onClick={() => void locate()} isLoading={locating || settings.saving === 'location'} loadingText="Getting your location…" alignSelf="flex-start">
        {label}
      </Button>
      {pending ? (
        <ConfirmDialog
          title="Update your job search area?"
          confirmLabel={MSG.location.updateLocation}
          onConfirm={() => void save(pending.point)}
          onCancel={() => setPending(null)}
        >
          {MSG.location.confirmMove(pending.miles.toFixed(1))}
        </ConfirmDialog>
      ) : null}
    </Flex>
  );
}
