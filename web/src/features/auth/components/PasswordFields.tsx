import { PASSWORD_MIN_LENGTH } from '../../../../../shared/schemas/auth';
import { FormField } from '../../../lib/components/FormField';
import type { ValidatedForm } from '../../../lib/hooks/useValidatedForm';

type PasswordField = 'password' | 'confirmPassword';

interface PasswordFieldsProps {
  values: Record<PasswordField, string>;
  onChange(field: PasswordField, value: string): void;
  errorOf(field: PasswordField): string | null | undefined;
  /** "New Password" / "Confirm New Password" (NewPasswordFields) instead of "Password" / "Confirm Password". */
  isNew?: boolean;
}

/** A new password and its confirmation, as sign-up and password reset both ask for them. */
export function PasswordFields({ values, onChange, errorOf, isNew = false }: PasswordFieldsProps) {
  const fields: Array<{ field: PasswordField; label: string; hint?: string }> = [
    { field: 'password', label: isNew ? 'New Password' : 'Password', hint: `At least ${PASSWORD_MIN_LENGTH} characters.` },
    { field: 'confirmPassword', label: isNew ? 'Confirm New Password' : 'Confirm Password' },
  ];
  return (
    <>
      {fields.map(({ field, label, hint }) => (
        <FormField key={field} label={label} error={errorOf(field)} hint={hint}>
          {(control) => (
            <input
              {...control}
              name={field}
              type="password"
              autoComplete="new-password"
              required
              value={values[field]}
              onChange={(e) => onChange(field, e.target.value)}
            />
          )}
        </FormField>
      ))}
    </>
  );
}

/** "New Password" and its confirmation, in a form that sets one (first sign-in, password reset). */
export function NewPasswordFields({ form }: { form: ValidatedForm<Record<PasswordField, string>> }) {
  return <PasswordFields values={form.values} onChange={form.update} errorOf={form.fieldError} isNew />;
}
