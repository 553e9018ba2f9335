import { useMemo, useState, type ChangeEvent } from 'react';
import { MSG } from '../../../../../shared/messages';
import { DOLLAR_INPUT_PATTERN, dollarsToCents } from '../../../../../shared/money';
import { EMPTY_JOB_FORM, validateJobForm, type JobFormResult, type JobFormValues } from '../../../../../shared/schemas/job';

export type JobFormField = keyof JobFormValues;
export type JobFieldErrors = Partial<Record<JobFormField, string>>;

const FIELD_ORDER = Object.keys(EMPTY_JOB_FORM) as JobFormField[];

// validateJobForm reports blank required fields with one form-level message; a field the
// poster has already visited also says what it misses.
const MISSING_TEXT: JobFieldErrors = {
  title: MSG.jobForm.titleRequired,
  description: MSG.jobForm.descriptionRequired,
  street: MSG.jobForm.streetRequired,
  city: MSG.jobForm.cityRequired,
  state: MSG.jobForm.stateRequired,
  payment: MSG.jobForm.validPayment,
  category: MSG.jobForm.categoryRequired,
  date: MSG.jobForm.dateRequired,
  duration: MSG.jobForm.durationRequired,
};

/** The server names fields by the API body's paths ("address.city", "skills.3"); the form by its own. */
function toFormField(path: string): JobFormField | null {
  const [head, next] = path.split('.');
  const name = head === 'address' ? next : head;
  return name !== undefined && name in EMPTY_JOB_FORM ? (name as JobFormField) : null;
}

/** The server's field errors (ApiRequestError.fields) as the form's. */
export function toJobFieldErrors(serverFields: Record<string, string>): JobFieldErrors {
  const errors: JobFieldErrors = {};
  for (const [path, message] of Object.entries(serverFields)) {
    const field = toFormField(path);
    if (field) errors[field] ??= message;
  }
  return errors;
}

/** The first field, in form order, that has a message (where focus goes). */
export const firstFieldWithError = (errors: JobFieldErrors): JobFormField | null => FIELD_ORDER.find((field) => errors[field]) ?? null;

/** What one text control spreads onto itself: its name, value, change and blur wiring. */
export interface BoundControl {
  name: JobFormField;
  value: string;
  onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>): void;
  onBlur(): void;
}

export interface JobFormState {
  values: JobFormValues;
  /** The form checked with the post page's rules and the server's schema (images aside). */
  validation: JobFormResult;
  /** The payment in cents, once it is a dollar amount. */
  paymentCents: number | null;
  /** The field's message: the client's once visited (or after a submit attempt), else the server's. */
  errorFor(field: JobFormField): string | null;
  /** The form-level message after a submit attempt ('Please fill in all required fields'). */
  formError: string | null;
  /** The first field the client's checks find wrong. */
  firstInvalidField: JobFormField | null;
  bind(field: JobFormField): BoundControl;
  /** Shows every client message, visited or not (a submit attempt). */
  showAllErrors(): void;
  /** Shows the server's field errors until those fields change. */
  showServerErrors(errors: JobFieldErrors): void;
}

/**
 * The job form's values and live validation (spec 1 §5 "Job form"): per-field messages appear
 * as fields are visited, all of them on a submit attempt, and the server's are mapped back on.
 */
export function useJobForm(initialValues: JobFormValues): JobFormState {
  const [values, setValues] = useState<JobFormValues>(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<JobFormField>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<JobFieldErrors>({});
  const validation = useMemo(() => validateJobForm(values), [values]);

  function clientError(field: JobFormField): string | undefined {
    const missing = values[field].trim() === '' ? MISSING_TEXT[field] : undefined;
    return missing ?? (validation.ok ? undefined : validation.fieldErrors[field]);
  }

  function update(field: JobFormField, value: string): void {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors(({ [field]: _answered, ...others }) => others);
  }

  const touch = (field: JobFormField) => setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));

  return {
    values,
    validation,
    paymentCents: dollarsToCents(values.payment),
    errorFor: (field) => ((attempted || touched.has(field) ? clientError(field) : undefined) ?? serverErrors[field] ?? null),
    formError: attempted && !validation.ok ? (validation.formError ?? null) : null,
    bind: (field) => ({
      name: field,
      value: values[field],
      onChange: (event) => {
        const text = event.target.value;
        // The payment takes digits with up to two decimals only; anything else is not typed in.
        if (field !== 'payment' || text === '' || DOLLAR_INPUT_PATTERN.test(text)) update(field, text);
      },
      onBlur: () => touch(field),
    }),
    firstInvalidField: FIELD_ORDER.find((field) => clientError(field)) ?? null,
    showAllErrors: () => setAttempted(true),
    showServerErrors: setServerErrors,
  };
}
