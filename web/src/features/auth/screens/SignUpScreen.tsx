import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { ROLES, ROLE_LABEL, isRole, type Role } from '../../../../../shared/roles';
import { signUpSchema, type SignUpForm as SignUpValues } from '../../../../../shared/schemas/auth';
import { useAdminStatus } from '../api/fetch-admin-status';
import { registerAccount, type NewAccount } from '../api/accounts';
import { signUpFailureText } from '../cognito-errors';
import { FormError } from '../../../lib/components/FormError';
import { EmailField } from '../components/EmailField';
import { FormField } from '../../../lib/components/FormField';
import { PasswordFields } from '../components/PasswordFields';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useConfig } from '../../../lib/useConfig';
import { useToast } from '../../../lib/toast/useToast';
import { showErrorAndFocus } from '../../../lib/forms';
import type { NavigationState } from '../../../lib/navigation-state';

export default function SignUpScreen() {
  const [params] = useSearchParams();
  const requestedRole = params.get('role');
  const initialRole: Role = isRole(requestedRole) ? requestedRole : 'worker';
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeading>Create Your Account</PageHeading>
        <p className="auth-card__lead">Join OddJobs to earn money on local jobs or get help with yours.</p>
        {/* A new ?role= (e.g. the footer's Admin link) starts a fresh form with that role. */}
        <SignUpForm key={initialRole} initialRole={initialRole} />
        <p className="auth-card__switch">
          Already have an account? <Link to="/sign-in">Sign In</Link>
        </p>
      </div>
    </div>
  );
}

type Field = keyof SignUpValues;

interface FormProblem {
  field: Field | null;
  message: string;
}

/** The schema's first message (spec: one message at a time), and the one-admin rule as far as we know it. */
function validateSignUp(values: SignUpValues, adminTaken: boolean): { account: NewAccount } | { problem: FormProblem } {
  const parsed = signUpSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: { field: (issue?.path[0] as Field | undefined) ?? null, message: issue?.message ?? MSG.auth.allFieldsRequired } };
  }
  if (parsed.data.role === 'admin' && adminTaken) return { problem: { field: 'role', message: MSG.auth.adminExists } };
  return { account: parsed.data };
}

function SignUpForm({ initialRole }: { initialRole: Role }) {
  const navigate = useNavigate();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<SignUpValues>({ name: '', email: '', password: '', confirmPassword: '', role: initialRole });
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const adminStatus = useAdminStatus();
  // In AWS the deploy holds the seat: the option is taken before anyone asks the API.
  const adminTaken = useConfig().adminSeatByDeploy === true || adminStatus.data?.adminExists === true;
  // ?role=admin preselects admin only while the seat is free: a disabled option is never the choice.
  const selectedRole: Role = values.role === 'admin' && adminTaken ? 'worker' : values.role;

  const update = (field: Field, value: string) => setValues((current) => ({ ...current, [field]: value }));
  const fieldError = (field: Field) => (problem?.field === field ? problem.message : null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const result = validateSignUp({ ...values, role: selectedRole }, adminTaken);
    if ('problem' in result) {
      showErrorAndFocus(form.current, result.problem.field, () => setProblem(result.problem));
      return;
    }
    setProblem(null);
    setSubmitting(true);
    try {
      await registerAccount(result.account);
      toast.success(MSG.auth.accountCreated);
      navigate('/verify-email', { state: { email: result.account.email } satisfies NavigationState });
    } catch (error) {
      setProblem({ field: null, message: signUpFailureText(error) });
      setSubmitting(false);
    }
  }

  return (
    <form ref={form} className="form" noValidate onSubmit={submit}>
      <fieldset disabled={submitting} className="form__fields">
        <FormField label="Full Name" error={fieldError('name')}>
          {(control) => (
            <input {...control} name="name" autoComplete="name" required value={values.name} onChange={(e) => update('name', e.target.value)} />
          )}
        </FormField>
        <EmailField value={values.email} onChange={(email) => update('email', email)} error={fieldError('email')} />
        <PasswordFields values={values} onChange={update} errorOf={fieldError} />
        <FormField label="Account Type" error={fieldError('role')}>
          {(control) => (
            <select {...control} name="role" required value={selectedRole} onChange={(e) => update('role', e.target.value)}>
              {ROLES.map((role) => {
                const unavailable = role === 'admin' && adminTaken;
                return (
                  <option key={role} value={role} disabled={unavailable}>
                    {unavailable ? MSG.nav.adminUnavailable : ROLE_LABEL[role]}
                  </option>
                );
              })}
            </select>
          )}
        </FormField>
        {problem && problem.field === null ? <FormError>{problem.message}</FormError> : null}
        <button type="submit" className="button button--block">
          {submitting ? 'Creating Account...' : 'Create Account'}
        </button>
      </fieldset>
    </form>
  );
}
