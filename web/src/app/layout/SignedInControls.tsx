import type { OwnProfile } from '../../../../shared/api';
import { useUnreadMessageTotal, useChatLiveSync } from '../../features/chat';
import { useQuietHoursZoneKeptCurrent } from '../../features/location';
import { NotificationBell } from '../../features/notifications';
import { MessagesLink } from './MessagesLink';
import { UserMenu } from './UserMenu';

/**
 * The header's controls for a signed-in user: Messages, the notification bell and the account
 * menu. A chunk of its own (SiteHeader loads it when someone is signed in), with the chat and
 * notification code it brings: a visitor who never signs in downloads none of it.
 */
export default function SignedInControls({ profile }: { profile: OwnProfile | null }) {
  const unreadMessages = useUnreadMessageTotal();
  // The header is on every page: it keeps the chat's cache (and so its badge) live.
  useChatLiveSync();
  useQuietHoursZoneKeptCurrent(profile);
  return (
    <>
      <MessagesLink unreadCount={unreadMessages} />
      <NotificationBell />
      <UserMenu profile={profile} />
    </>
  );
}
