import '@aws-amplify/ui-react/styles.css';
import { Button, Card, Flex, Heading, Text, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { ROLE_HOME } from '../../../../../shared/roles';
import { zipUpdateSchema } from '../../../../../shared/schemas/notifications';
import { apiErrorText } from '../../../lib/api/client';
import { PageHeading } from '../../../lib/components/PageHeading';
import { PreferencesForm } from '../../notifications';
import { PaymentAccountActions } from '../../payments';
import { useAuth } from '../../../lib/auth/useAuth';
import { browserTimeZone, currentPosition, useLocationSettings } from '../../location';
import { useToast } from '../../../lib/toast/useToast';

const STEPS = ['Welcome', 'Set your location', 'Preferences and payouts', 'All set'] as const;

/**
 * /worker-onboarding (spec 2 §2): four steps with a counter and a percent bar. A worker who
 * already has coordinates starts at step 2 (index 2: preferences); 'Skip for now' (steps 2
 * and 3) and the final button go to the worker dashboard. The role guard is in the router.
 */
export default function WorkerOnboardingScreen() {
  const { profile } = useAuth();
  const navigate = useNavigate();
  const [step, setStep] = useState(() => (profile?.latitude !== null && profile?.latitude !== undefined ? 2 : 0));
  const next = () => setStep((current) => Math.min(STEPS.length - 1, current + 1));
  const toDashboard = () => void navigate(ROLE_HOME.worker);
  const percent = Math.round(((step + 1) / STEPS.length) * 100);

  return (
    <div className="page page--narrow">
      <PageHeading>Get Started</PageHeading>
      <Text as="p" aria-live="polite">
        Step {step + 1} of {STEPS.length}: {STEPS[step]}
      </Text>
      <div className="progress" role="progressbar" aria-label="Onboarding progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <Text as="p" variation="tertiary" fontSize="small">
        {percent}% complete
      </Text>
      <Card variation="outlined" marginTop="medium">
        {step === 0 ? (
          <Flex direction="column" gap="medium">
            <Heading level={2}>Welcome to OddJobs{profile ? `, ${profile.name}` : ''}!</Heading>
            <Text>Set your location and preferences to hear about paid jobs near you as soon as they are posted.</Text>
            <Button variation="primary" onClick={next} alignSelf="flex-start">
              Let’s go
            </Button>
          </Flex>
        ) : null}
        {step === 1 ? <LocationStep onDone={next} onSkip={toDashboard} /> : null}
        {step === 2 ? (
          <Flex direction="column" gap="medium">
            <Heading level={2}>{STEPS[2]}</Heading>
            <PreferencesForm onSaved={next} />
            {profile ? <PaymentAccountActions account={profile.paymentAccount} /> : null}
            <Flex gap="small">
              <Button onClick={next}>Continue</Button>
              <Button variation="link" onClick={toDashboard}>
                Skip for now
              </Button>
            </Flex>
          </Flex>
        ) : null}
        {step === 3 ? (
          <Flex direction="column" gap="medium">
            <Heading level={2}>You’re all set!</Heading>
            <Text>
              We will notify you of new jobs near you. You can change this any time in <Link to="/notification-settings">notification settings</Link>.
            </Text>
            <Button variation="primary" onClick={toDashboard} alignSelf="flex-start">
              Go to my dashboard
            </Button>
          </Flex>
        ) : null}
      </Card>
    </div>
  );
}

/** Step 2: the device's location, or a zip code when that fails or is not wanted. */
function LocationStep({ onDone, onSkip }: { onDone(): void; onSkip(): void }) {
  const toast = useToast();
  const settings = useLocationSettings();
  const [zip, setZip] = useState('');
  const [zipError, setZipError] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);

  async function locateDevice() {
    setLocating(true);
    try {
      await settings.saveCoordinates(await currentPosition());
      toast.success(MSG.location.updated);
      onDone();
    } catch {
      toast.error(MSG.location.onboardingLocationFailed);
    } finally {
      setLocating(false);
    }
  }

  async function submitZip(event: FormEvent) {
    event.preventDefault();
    const parsed = zipUpdateSchema.safeParse({ zip, timeZone: browserTimeZone() });
    if (!parsed.success) {
      setZipError(MSG.location.invalidZip);
      return;
    }
    setZipError(null);
    try {
      await settings.saveZip(parsed.data.zip);
      toast.success(MSG.location.updated);
      onDone();
    } catch (error) {
      toast.error(apiErrorText(error, MSG.location.zipNotFound));
    }
  }

  return (
    <Flex direction="column" gap="medium">
      <Heading level={2}>{STEPS[1]}</Heading>
      <Text>We use it only to tell you about jobs within your chosen distance.</Text>
      <Button variation="primary" onClick={() => void locateDevice()} isLoading={locating} alignSelf="flex-start">
        {MSG.location.getCurrentLocation}
      </Button>
      <form onSubmit={(event) => void submitZip(event)}>
        <Flex gap="small" alignItems="flex-end" wrap="wrap">
          <TextField label="Or enter your zip code" inputMode="numeric" autoComplete="postal-code" value={zip} onChange={(event) => setZip(event.target.value)} hasError={zipError !== null} errorMessage={zipError ?? undefined} />
          <Button type="submit" isLoading={settings.saving === 'location'}>
            Use zip code
          </Button>
        </Flex>
      </form>
      <Button variation="link" onClick={onSkip} alignSelf="flex-start">
        Skip for now
      </Button>
    </Flex>
  );
}
