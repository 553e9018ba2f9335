import '@aws-amplify/ui-react/styles.css';
import { Card, Divider, Heading } from '@aws-amplify/ui-react';
import { MSG } from '../../../../../shared/messages';
import { PageHeading } from '../../../lib/components/PageHeading';
import { LocationBlock } from '../../location';
import { PreferencesForm } from '../components/PreferencesForm';

/** /notification-settings: the 'Location and Job Notifications' card (spec 2 §2). */
export default function NotificationSettingsScreen() {
  return (
    <div className="page page--narrow">
      <PageHeading>{MSG.nav.notificationSettings}</PageHeading>
      <Card variation="outlined">
        <Heading level={2} marginBottom="medium">
          {MSG.location.cardTitle}
        </Heading>
        <LocationBlock />
        <Divider marginBlock="large" />
        <PreferencesForm />
      </Card>
    </div>
  );
}
