import type { ChannelChoices as Choices, NotificationChannel, NotificationPreferences, NotificationType } from '../../../../../shared/api';
import { NOTIFICATION_TYPES } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { NOTIFICATION_TYPE_LABELS } from '../../../../../shared/notifications';
import { useWebPush } from '../hooks/useWebPush';
import { PushOptIn } from './PushOptIn';

/**
 * The channels a user can choose. Push can be chosen once it is on in this browser
 * (docs/decisions/0198-web-push-is-opt-in.md).
 */
const CHOOSABLE: ReadonlyArray<{ channel: NotificationChannel; heading: string; label: string }> = [
  { channel: 'inApp', heading: 'In app', label: 'in the app' },
  { channel: 'email', heading: 'Email', label: 'by email' },
  { channel: 'push', heading: MSG.notifications.pushHeading, label: 'by push' },
];

/**
 * Per notification type, whether it reaches the user on each channel offered (DECISIONS.md
 * "Off-site delivery"). A table of checkboxes, each named by its row and column for screen
 * readers; it scrolls sideways inside its card on narrow screens.
 */
export function ChannelChoices({ channels, onChange }: { channels: NotificationPreferences['channels']; onChange: (type: NotificationType, choices: Choices) => void }) {
  const push = useWebPush();
  return (
    <fieldset className="channel-choices">
      <legend>{MSG.notifications.channelsTitle}</legend>
      <p className="channel-choices__hint">{MSG.notifications.channelsHint}</p>
      <div className="channel-choices__scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Notification</th>
              {CHOOSABLE.map(({ channel, heading }) => (
                <th key={channel} scope="col">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_TYPES.map((type) => (
              <tr key={type}>
                <th scope="row">{NOTIFICATION_TYPE_LABELS[type]}</th>
                {CHOOSABLE.map(({ channel, label }) => (
                  <td key={channel}>
                    <input
                      type="checkbox"
                      aria-label={`${NOTIFICATION_TYPE_LABELS[type]}: ${label}`}
                      checked={channels[type][channel]}
                      disabled={channel === 'push' && push.status !== 'on'}
                      onChange={(event) => onChange(type, { ...channels[type], [channel]: event.target.checked })}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PushOptIn push={push} />
    </fieldset>
  );
}
