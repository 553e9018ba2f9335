import { FormField } from '../../../lib/components/FormField';

interface CodeFieldProps {
  label: string;
  value: string;
  /** Receives the digits only: the mailed codes are six digits. */
  onChange(digits: string): void;
  error?: string | null;
  autoFocus?: boolean;
}

/** The input for a six-digit code from the mailbox (email verification, password reset). */
export function CodeField({ label, value, onChange, error, autoFocus = false }: CodeFieldProps) {
  return (
    <FormField label={label} error={error}>
      {(control) => (
        <input
          {...control}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          className="code-input"
          autoFocus={autoFocus}
          value={value}
          onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        />
      )}
    </FormField>
  );
}
