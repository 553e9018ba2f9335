import { FormField } from '../../../lib/components/FormField';

interface EmailFieldProps {
  value: string;
  onChange(value: string): void;
  error?: string | null;
}

/** The labelled email input every account form starts with. */
export function EmailField({ value, onChange, error }: EmailFieldProps) {
  return (
    <FormField label="Email" error={error}>
      {(control) => (
        <input {...control} name="email" type="email" autoComplete="email" required value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </FormField>
  );
}
