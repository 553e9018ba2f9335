import { Button, Flex } from '@aws-amplify/ui-react';
import { MSG } from '../../../../../shared/messages';
import type { useWebPush } from '../hooks/useWebPush';

const STATUS_TEXT = {
  checking: null,
  unavailable: MSG.notifications.pushUnavailableHere,
  blocked: MSG.notifications.pushBlocked,
  off: MSG.notifications.pushOff,
  on: MSG.notifications.pushOn,
} as const;

/**
 * Push on this browser: what its state is, in words read out when it changes, and the button
 * that turns it on (asking the browser's permission) or off. Where the browser cannot push it
 * says so, and the rest of the page works as before.
 */
export function PushOptIn({ push }: { push: ReturnType<typeof useWebPush> }) {
  const { status, busy, error, turnOn, turnOff } = push;
  return (
    <Flex direction="column" gap="xs" className="push-opt-in">
      <p className="channel-choices__hint" role="status">
        {error ?? STATUS_TEXT[status]}
      </p>
      {status === 'off' || status === 'on' ? (
        <Button type="button" size="small" alignSelf="flex-start" isLoading={busy} onClick={() => void (status === 'on' ? turnOff() : turnOn())}>
          {status === 'on' ? MSG.notifications.pushOptOut : MSG.notifications.pushOptIn}
        </Button>
      ) : null}
    </Flex>
  );
}
