import '@aws-amplify/ui-react/styles.css';
import { Button, Card, Flex, Text } from '@aws-amplify/ui-react';
import { MSG } from '../../../../../shared/messages';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { NotificationEntry } from '../components/NotificationEntry';
import { useMarkAllNotificationsRead, useNotificationList } from '../hooks/useNotifications';
import { useNow } from '../../../lib/hooks/useNow';

/**
 * /notifications (spec 2 §2): the 50 most recent, urgent types first; opening one marks it
 * read, and 'Mark all as read' clears the rest. Fetch errors are only logged (spec 2 §8), so
 * a failed load shows the empty list with a way to try again.
 */
export default function NotificationsScreen() {
  const list = useNotificationList();
  const markAll = useMarkAllNotificationsRead();
  const now = useNow(60_000);
  const unread = list.data?.filter((n) => !n.read).length ?? 0;
  if (list.error) console.error('notifications not loaded', list.error);

  return (
    <div className="page page--narrow">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap">
        <PageHeading>{MSG.notifications.title}</PageHeading>
        <Button size="small" onClick={() => markAll.mutate()} isDisabled={unread === 0} isLoading={markAll.isPending}>
          {MSG.notifications.markAllRead}
        </Button>
      </Flex>
      {list.isPending ? <LoadingState label="Loading notifications…" /> : null}
      {list.data && list.data.length === 0 ? <EmptyState title={MSG.notifications.empty} /> : null}
      {list.error ? (
        <EmptyState title={MSG.notifications.empty}>
          <Button size="small" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : null}
      {list.data && list.data.length > 0 ? (
        <Card variation="outlined">
          <Text as="p" variation="tertiary" fontSize="small">
            {unread} unread
          </Text>
          <ul className="notification-list">
            {list.data.map((notification) => (
              <li key={notification.id}>
                <NotificationEntry notification={notification} now={now} />
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}
