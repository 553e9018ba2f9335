import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { CONFIRMATION_CODE_PATTERN, resendVerificationCode, verifyEmail } from '../api/accounts';
import { confirmSignUpFailureText, resendCodeFailureText } from '../cognito-errors';
import { CodeField } from '../components/CodeField';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useConfig } from '../../../lib/useConfig';
import { useToast } from '../../../lib/toast/useToast';
import { useToastedAction } from '../../../lib/toast/useToastedAction';
import { showErrorAndFocus } from '../../../lib/forms';
import { readNavigationState, type NavigationState } from '../../../lib/navigation-state';

/** Shown without the navigation bar right after sign-up; the address comes in navigation state. */
export default function VerifyEmailScreen() {
  const { email } = readNavigationState(useLocation().state);
  const { mailboxUrl } = useConfig();
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeading>{MSG.verify.title}</PageHeading>
        {email ? (
          <>
            <p>
              We sent a 6-digit verification code to <strong className="break-anywhere">{email}</strong>.
            </p>
            <ul className="tips">
              <li>Enter the code from the email below to activate your account.</li>
              <li>Can&apos;t find it? Check your spam or junk folder.</li>
            </ul>
            <VerifyCodeForm email={email} />
          </>
        ) : (
          <p role="alert">{MSG.verify.noEmail}</p>
        )}
        <ResendButton email={email ?? null} />
        {mailboxUrl ? (
          <p className="dev-aid">
            <a href={mailboxUrl} target="_blank" rel="noreferrer">
              Open local mailbox
            </a>
          </p>
        ) : null}
        <p className="auth-card__switch">
          <Link to="/sign-up">Sign up again</Link>
          <span aria-hidden="true"> · </span>
          <Link to="/sign-in">Sign In</Link>
        </p>
      </div>
    </div>
  );
}

function VerifyCodeForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const trimmed = code.trim();
    if (!CONFIRMATION_CODE_PATTERN.test(trimmed)) {
      showErrorAndFocus(form.current, 'code', () => setProblem(MSG.verify.invalidCode));
      return;
    }
    setProblem(null);
    setSubmitting(true);
    try {
      await verifyEmail(email, trimmed);
      toast.success(MSG.verify.verified);
      navigate('/sign-in', { state: { email, welcome: true } satisfies NavigationState });
    } catch (error) {
      setProblem(confirmSignUpFailureText(error));
      setSubmitting(false);
    }
  }

  return (
    <form ref={form} className="form" noValidate onSubmit={submit}>
      <fieldset disabled={submitting} className="form__fields">
        <CodeField label="Verification Code" value={code} onChange={setCode} error={problem} />
        <button type="submit" className="button button--block">
          {submitting ? 'Verifying...' : 'Verify Email'}
        </button>
      </fieldset>
    </form>
  );
}

function ResendButton({ email }: { email: string | null }) {
  // The button is disabled without an address, so the action never runs without one.
  const { busy: sending, run: resend } = useToastedAction(() => resendVerificationCode(email ?? ''), MSG.verify.resent, resendCodeFailureText);

  return (
    <button type="button" className="button button--secondary button--block resend-button" disabled={!email || sending} onClick={() => void resend()}>
      {sending ? MSG.verify.sending : 'Resend Verification Email'}
    </button>
  );
}
