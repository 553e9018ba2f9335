import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import * as z from '../../../../../shared/zod';
import { MSG } from '../../../../../shared/messages';
import { newPasswordFields, passwordsMatch } from '../../../../../shared/schemas/auth';
import { CONFIRMATION_CODE_PATTERN, completePasswordReset, requestPasswordReset } from '../api/accounts';
import { passwordResetFailureText } from '../cognito-errors';
import { FormError } from '../../../lib/components/FormError';
import { EmailField } from '../components/EmailField';
import { CodeField } from '../components/CodeField';
import { NewPasswordFields } from '../components/PasswordFields';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useConfig } from '../../../lib/useConfig';
import { useToast } from '../../../lib/toast/useToast';
import { useToastedAction } from '../../../lib/toast/useToastedAction';
import { useValidatedForm } from '../../../lib/hooks/useValidatedForm';
import { readNavigationState, type NavigationState } from '../../../lib/navigation-state';

const requestCodeSchema = z.object({
  email: z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, MSG.auth.invalidEmail)), z.email(MSG.auth.invalidEmail)),
});

const resetSchema = z
  .object({ code: z.string().check(z.trim(), z.regex(CONFIRMATION_CODE_PATTERN, MSG.verify.invalidCode)), ...newPasswordFields })
  .check(passwordsMatch);

/**
 * Password recovery in two steps: the address gets a code by email, then the code and a new
 * password set it. Success leads to sign-in with the address filled in.
 */
export default function ForgotPasswordScreen() {
  const { email: typedEmail } = readNavigationState(useLocation().state);
  const { mailboxUrl } = useConfig();
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeading>Reset Your Password</PageHeading>
        {codeSentTo ? (
          <NewPasswordForm email={codeSentTo} onUseOtherEmail={() => setCodeSentTo(null)} />
        ) : (
          <RequestCodeForm initialEmail={typedEmail ?? ''} onSent={setCodeSentTo} />
        )}
        {mailboxUrl ? (
          <p className="dev-aid">
            <a href={mailboxUrl} target="_blank" rel="noreferrer">
              Open local mailbox
            </a>
          </p>
        ) : null}
        <p className="auth-card__switch">
          Remembered it? <Link to="/sign-in">Sign In</Link>
        </p>
      </div>
    </div>
  );
}

function RequestCodeForm({ initialEmail, onSent }: { initialEmail: string; onSent(email: string): void }) {
  const ref = useRef<HTMLFormElement>(null);
  const form = useValidatedForm({
    form: ref,
    schema: requestCodeSchema,
    initialValues: { email: initialEmail },
    async submit({ email }) {
      await requestPasswordReset(email);
      onSent(email);
      return 'finished';
    },
    failureText: passwordResetFailureText,
  });

  return (
    <form ref={ref} className="form" noValidate onSubmit={form.onSubmit}>
      <p className="auth-card__lead">Enter the email address of your account and we will email you a code to choose a new password.</p>
      <fieldset disabled={form.submitting} className="form__fields">
        {/* One message, under the address: what is wrong with it, or why no code could be sent. */}
        <EmailField value={form.values.email} onChange={(email) => form.update('email', email)} error={form.fieldError('email') ?? form.formError} />
        <button type="submit" className="button button--block">
          {form.submitting ? MSG.verify.sending : 'Send Reset Code'}
        </button>
      </fieldset>
    </form>
  );
}

interface NewPasswordFormProps {
  email: string;
  onUseOtherEmail(): void;
}

function NewPasswordForm({ email, onUseOtherEmail }: NewPasswordFormProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const ref = useRef<HTMLFormElement>(null);
  const form = useValidatedForm({
    form: ref,
    schema: resetSchema,
    initialValues: { code: '', password: '', confirmPassword: '' },
    async submit({ code, password }) {
      await completePasswordReset(email, code, password);
      toast.success(MSG.passwordReset.done);
      navigate('/sign-in', { state: { email } satisfies NavigationState });
      return 'finished';
    },
    failureText: passwordResetFailureText,
  });
  const { busy: resending, run: resendCode } = useToastedAction(() => requestPasswordReset(email), MSG.passwordReset.codeSent, passwordResetFailureText);

  return (
    <form ref={ref} className="form" noValidate onSubmit={form.onSubmit}>
      <p role="status">
        {MSG.passwordReset.codeSent} It went to <strong className="break-anywhere">{email}</strong>.
      </p>
      <fieldset disabled={form.submitting} className="form__fields">
        {/* The previous step's button is gone: the next thing to do is typing the mailed code. */}
        <CodeField label="Reset Code" value={form.values.code} onChange={(code) => form.update('code', code)} error={form.fieldError('code')} autoFocus />
        <NewPasswordFields form={form} />
        {form.formError ? <FormError>{form.formError}</FormError> : null}
        <button type="submit" className="button button--block">
          {form.submitting ? 'Resetting...' : 'Reset Password'}
        </button>
        <div className="button-row button-row--center">
          <button type="button" className="button button--ghost button--small" disabled={resending} onClick={() => void resendCode()}>
            {resending ? MSG.verify.sending : 'Send a new code'}
          </button>
          <button type="button" className="button button--ghost button--small" onClick={onUseOtherEmail}>
            Use a different email
          </button>
        </div>
      </fieldset>
    </form>
  );
}
