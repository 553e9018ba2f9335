import '@aws-amplify/ui-react/styles.css';
import { Card, Divider, Heading } from '@aws-amplify/ui-react';
import { MSG } from '../../../../../shared/messages';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useAuth } from '../../../lib/auth/useAuth';
import { LocationBlock } from '../../location';
import { SavedSearchesCard } from '../../jobs';
import { PreferencesForm } from '../components/PreferencesForm';

/**
 * /notification-settings: a worker's 'Location and Job Notifications' card (spec 2 §2); a
 * poster or the admin, who get no nearby-job alerts, see their quiet hours and channels only. A
 * worker also sees their saved searches (issue 46).
 */
export default function NotificationSettingsScreen() {
  const { profile } = useAuth();
  const isWorker = profile?.role === 'worker';
  return (
    <div className="page page--narrow">
      <PageHeading>{MSG.nav.notificationSettings}</PageHeading>
      <Card variation="outlined">
        <Heading level={2} marginBottom="medium">
          {isWorker ? MSG.location.cardTitle : MSG.nav.notificationSettings}
        </Heading>
        {isWorker ? (
          <>
            <LocationBlock />
            <Divider marginBlock="large" />
          </>
        ) : null}
        <PreferencesForm />
        {isWorker ? (
          <>
            <Divider marginBlock="large" />
            <SavedSearchesCard />
          </>
        ) : null}
      </Card>
    </div>
  );
}
