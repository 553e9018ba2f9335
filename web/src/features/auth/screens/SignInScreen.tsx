import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MSG, signInErrorText } from '../../../../../shared/messages';
import { newPasswordSchema, signInSchema } from '../../../../../shared/schemas/auth';
import { isUnconfirmedUser, newPasswordFailureText, signInFailureText } from '../cognito-errors';
import { NewPasswordFields } from '../components/PasswordFields';
import { prefetchAmplify } from '../../../lib/auth/session';
import { dashboardPath, welcomePath } from '../../../lib/auth/destinations';
import { FormError } from '../../../lib/components/FormError';
import { EmailField } from '../components/EmailField';
import { FormField } from '../../../lib/components/FormField';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useAuth, type SignInOutcome } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';
import { showErrorAndFocus } from '../../../lib/forms';
import { useValidatedForm } from '../../../lib/hooks/useValidatedForm';
import { readNavigationState, type NavigationState } from '../../../lib/navigation-state';

/** The spec's pause between "signed in" and the redirect, long enough to see the toast begin. */
const REDIRECT_DELAY_MS = 100;

/** `preloadSignedInControls` downloads the app header's signed-in controls, which show right after. */
export default function SignInScreen({ preloadSignedInControls }: { preloadSignedInControls(): void }) {
  const { status, profile } = useAuth();
  const navigate = useNavigate();
  const { email, from, welcome } = readNavigationState(useLocation().state);
  // The page a guard sent the user away from; else, right after verifying, the welcoming dashboard; else their own.
  const destination = from ?? (welcome && profile ? welcomePath(profile.role) : dashboardPath(profile));

  // Signing in needs Amplify, then the header's signed-in controls: both download while the form is filled in.
  useEffect(() => {
    prefetchAmplify();
    preloadSignedInControls();
  }, [preloadSignedInControls]);

  // Whoever has a profile here, just signed in or already signed in before, moves on.
  useEffect(() => {
    if (!profile) return;
    const timer = window.setTimeout(() => navigate(destination, { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [profile, destination, navigate]);

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeading>Sign In</PageHeading>
        {status === 'loading' ? <p role="status">{MSG.auth.checkingAuthentication}</p> : null}
        {profile ? <p role="status">{MSG.auth.redirectingToDashboard}</p> : null}
        {status === 'signedIn' && !profile ? (
          <>
            <p>{MSG.auth.alreadySignedIn}</p>
            <button type="button" className="button button--block" onClick={() => navigate(destination)}>
              {MSG.nav.continueToDashboard}
            </button>
          </>
        ) : null}
        {status === 'signedOut' ? (
          <>
            <SignInForm initialEmail={email ?? ''} />
            <p className="auth-card__switch">
              Don&apos;t have an account? <Link to="/sign-up">Sign up</Link>
            </p>
          </>
        ) : null}
      </div>
    </div>
  );
}

interface SignInProblem {
  message: string;
  /** The email to verify, when the account exists but its address is not confirmed yet. */
  unverifiedEmail?: string;
}

function SignInForm({ initialEmail }: { initialEmail: string }) {
  const { signIn } = useAuth();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({ email: initialEmail, password: '' });
  const [problem, setProblem] = useState<SignInProblem | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Cognito asked for a new password (an invitation's temporary one was used): the second step.
  const [choosingPassword, setChoosingPassword] = useState(false);

  /** Tells the user how signing in ended, and leaves the form usable again unless they are signed in. */
  function report(outcome: SignInOutcome, email: string): void {
    switch (outcome.kind) {
      case 'signedIn':
        // The screen now shows "Redirecting..." and moves on; nothing else to do here.
        toast.success(MSG.auth.signedIn);
        return;
      case 'newPasswordRequired':
        setChoosingPassword(true);
        break;
      case 'unconfirmed':
        setProblem({ message: signInErrorText('email not confirmed'), unverifiedEmail: email });
        break;
      case 'profileMissing':
        toast.error(MSG.auth.accountProfileNotFound);
        break;
      case 'profileFailed':
        toast.error(MSG.auth.failedToLoadProfile);
        break;
    }
    setSubmitting(false);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const parsed = signInSchema.safeParse(values);
    if (!parsed.success) {
      const field = values.email.trim() ? 'password' : 'email';
      showErrorAndFocus(form.current, field, () => setProblem({ message: parsed.error.issues[0]?.message ?? MSG.auth.emailAndPasswordRequired }));
      return;
    }
    const { email, password } = parsed.data;
    setProblem(null);
    setSubmitting(true);
    try {
      report(await signIn(email, password), email);
    } catch (error) {
      setProblem({ message: signInFailureText(error), ...(isUnconfirmedUser(error) ? { unverifiedEmail: email } : {}) });
      setSubmitting(false);
    }
  }

  if (choosingPassword) {
    return (
      <NewPasswordStep
        onOutcome={(outcome) => report(outcome, values.email.trim())}
        onRestart={() => {
          setChoosingPassword(false);
          setValues((current) => ({ ...current, password: '' }));
        }}
      />
    );
  }

  return (
    <form ref={form} className="form" noValidate onSubmit={submit}>
      <fieldset disabled={submitting} className="form__fields">
        <EmailField value={values.email} onChange={(email) => setValues((current) => ({ ...current, email }))} />
        <FormField label="Password">
          {(control) => (
            <input
              {...control}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={values.password}
              onChange={(e) => setValues((current) => ({ ...current, password: e.target.value }))}
            />
          )}
        </FormField>
        <p className="auth-card__forgot">
          {/* The reset form starts with whatever address was typed here. */}
          <Link to="/forgot-password" state={{ email: values.email.trim() } satisfies NavigationState}>
            Forgot password?
          </Link>
        </p>
        {problem ? (
          <FormError>
            <p>{problem.message}</p>
            {problem.unverifiedEmail ? (
              <p>
                <Link to="/verify-email" state={{ email: problem.unverifiedEmail } satisfies NavigationState}>
                  Verify your email
                </Link>
              </p>
            ) : null}
          </FormError>
        ) : null}
        <button type="submit" className="button button--block">
          {submitting ? 'Signing In...' : 'Sign In'}
        </button>
      </fieldset>
    </form>
  );
}

interface NewPasswordStepProps {
  onOutcome(outcome: SignInOutcome): void;
  /** Back to the first step, e.g. once Cognito's session for this step has expired. */
  onRestart(): void;
}

/** Cognito's NEW_PASSWORD_REQUIRED step: the invited user replaces the temporary password, then is signed in. */
function NewPasswordStep({ onOutcome, onRestart }: NewPasswordStepProps) {
  const { completeNewPassword } = useAuth();
  const ref = useRef<HTMLFormElement>(null);
  const form = useValidatedForm({
    form: ref,
    schema: newPasswordSchema,
    initialValues: { password: '', confirmPassword: '' },
    async submit({ password }) {
      const outcome = await completeNewPassword(password);
      onOutcome(outcome);
      return outcome.kind === 'signedIn' ? 'finished' : 'again';
    },
    failureText: newPasswordFailureText,
  });

  // The step replaces the sign-in form: move focus into it, so keyboard and screen-reader users follow.
  useEffect(() => {
    const field = ref.current?.elements.namedItem('password');
    if (field instanceof HTMLElement) field.focus();
  }, []);

  return (
    <form ref={ref} className="form" noValidate onSubmit={form.onSubmit} aria-describedby="new-password-required">
      <p id="new-password-required" role="status">
        {MSG.auth.newPasswordRequired}
      </p>
      <fieldset disabled={form.submitting} className="form__fields">
        <NewPasswordFields form={form} />
        {form.formError ? (
          <FormError>
            <p>{form.formError}</p>
            {form.formError === MSG.auth.newPasswordSessionExpired ? (
              <p>
                <button type="button" className="button button--ghost button--small" onClick={onRestart}>
                  Sign in again
                </button>
              </p>
            ) : null}
          </FormError>
        ) : null}
        <button type="submit" className="button button--block">
          {form.submitting ? 'Saving...' : 'Set New Password'}
        </button>
      </fieldset>
    </form>
  );
}
