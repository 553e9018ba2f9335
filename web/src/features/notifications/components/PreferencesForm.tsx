import { Button, CheckboxField, Flex, Fieldset, SelectField, SwitchField, Text, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import type { NotificationPreferences } from '../../../../../shared/api';
import { JOB_CATEGORIES } from '../../../../../shared/categories';
import { MSG } from '../../../../../shared/messages';
import { DAILY_LIMIT_OPTIONS, DEFAULT_NOTIFICATION_PREFERENCES, RADIUS_OPTIONS } from '../../../../../shared/notifications';
import { notificationPreferencesSchema } from '../../../../../shared/schemas/notifications';
import { apiErrorText } from '../../../lib/api/client';
import { useAuth } from '../../../lib/auth/useAuth';
import { browserTimeZone, useLocationSettings } from '../../location';
import { useToast } from '../../../lib/toast/useToast';
import { ChannelChoices } from './ChannelChoices';

/**
 * The notification preferences (spec 2 §2, §9). A worker's nearby-job alerts: on/off, radius
 * (5 recommended), daily limit (10 recommended) and categories (none = all); everyone's quiet
 * hours, on a switch of their own (they hold back every email and push, not only alerts; run in
 * the browser's zone, saved with them); and per notification type the channels it goes by.
 * Checked with the server's own schema before saving.
 */
export function PreferencesForm({ onSaved }: { onSaved?: () => void }) {
  const { profile } = useAuth();
  const isWorker = profile?.role === 'worker';
  const toast = useToast();
  const settings = useLocationSettings();
  const [preferences, setPreferences] = useState<NotificationPreferences>(profile?.notificationPreferences ?? DEFAULT_NOTIFICATION_PREFERENCES);
  const set = (changes: Partial<NotificationPreferences>) => setPreferences((current) => ({ ...current, ...changes }));
  const setQuiet = (changes: Partial<NotificationPreferences['quietHours']>) => set({ quietHours: { ...preferences.quietHours, ...changes } });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = notificationPreferencesSchema.safeParse(preferences);
    if (!parsed.success) {
      toast.error(parsed.error.issues[0]?.message ?? MSG.location.preferencesFailed);
      return;
    }
    try {
      await settings.savePreferences({ ...parsed.data, channels: preferences.channels });
      toast.success(MSG.location.preferencesSaved);
      onSaved?.();
    } catch (error) {
      toast.error(apiErrorText(error, MSG.location.preferencesFailed));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Flex direction="column" gap="medium">
        {isWorker ? (
          <>
            <SwitchField label="Notify me about new jobs near me" isChecked={preferences.enabled} onChange={(event) => set({ enabled: event.target.checked })} />
            <SelectField label="Notification radius" value={String(preferences.radiusMiles)} onChange={(event) => set({ radiusMiles: Number(event.target.value) })}>
              {RADIUS_OPTIONS.map((miles) => (
                <option key={miles} value={miles}>
                  {miles} {miles === 1 ? 'mile' : 'miles'}
                  {miles === DEFAULT_NOTIFICATION_PREFERENCES.radiusMiles ? ' (recommended)' : ''}
                </option>
              ))}
            </SelectField>
            <SelectField label="Daily limit" value={String(preferences.maxPerDay)} onChange={(event) => set({ maxPerDay: Number(event.target.value) })}>
              {DAILY_LIMIT_OPTIONS.map((limit) => (
                <option key={limit} value={limit}>
                  {limit} per day{limit === DEFAULT_NOTIFICATION_PREFERENCES.maxPerDay ? ' (recommended)' : ''}
                </option>
              ))}
            </SelectField>
            <Fieldset legend="Job categories (none chosen: all)" direction="row" wrap="wrap" gap="small">
              {JOB_CATEGORIES.map((category) => (
                <CheckboxField
                  key={category}
                  name="jobCategories"
                  value={category}
                  label={category}
                  checked={preferences.jobCategories.includes(category)}
                  onChange={(event) =>
                    set({ jobCategories: event.target.checked ? [...preferences.jobCategories, category] : preferences.jobCategories.filter((c) => c !== category) })
                  }
                />
              ))}
            </Fieldset>
          </>
        ) : null}
        <SwitchField
          label="Quiet hours"
          descriptiveText="No email or push in these hours; they arrive when the quiet hours end."
          isChecked={preferences.quietHours.enabled}
          onChange={(event) => setQuiet({ enabled: event.target.checked })}
        />
        {preferences.quietHours.enabled ? (
          <>
            <Flex gap="small" wrap="wrap">
              <TextField label="From" type="time" value={preferences.quietHours.start} onChange={(event) => setQuiet({ start: event.target.value })} />
              <TextField label="Until" type="time" value={preferences.quietHours.end} onChange={(event) => setQuiet({ end: event.target.value })} />
            </Flex>
            <Text className="muted">In your time zone: {browserTimeZone()}</Text>
          </>
        ) : null}
        <ChannelChoices channels={preferences.channels} onChange={(type, choices) => set({ channels: { ...preferences.channels, [type]: choices } })} />
        <Button type="submit" variation="primary" isLoading={settings.saving === 'preferences'} alignSelf="flex-start">
          {MSG.location.savePreferences}
        </Button>
      </Flex>
    </form>
  );
}
