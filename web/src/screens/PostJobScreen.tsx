import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { JOB_CATEGORIES } from '../../../shared/categories';
import { MSG } from '../../../shared/messages';
import { DOLLAR_INPUT_PATTERN, PAYMENT_LIMITS, dollarsToCents, formatCents } from '../../../shared/money';
import { EMPTY_JOB_FORM, validateJobForm, type JobFormValues } from '../../../shared/schemas/job';
import { ApiRequestError, apiErrorText } from '../api/client';
import { createJob } from '../api/endpoints';
import { FormError } from '../components/FormError';
import { FormField } from '../components/FormField';
import { PageHeading } from '../components/PageHeading';
import { PriceSummary } from '../components/jobs/PriceSummary';
import { useApi } from '../hooks/useApi';
import { useToast } from '../hooks/useToast';
import { showErrorAndFocus } from '../lib/forms';
import { todayAsCalendarDay } from '../lib/format';

type Field = keyof JobFormValues;
type FieldErrors = Partial<Record<Field, string>>;

const FIELD_ORDER = Object.keys(EMPTY_JOB_FORM) as Field[];

// validateJobForm reports blank required fields with one form-level message; a field the
// poster has already visited also says what it misses.
const MISSING_TEXT: FieldErrors = {
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
function toFormField(path: string): Field | null {
  const [head, next] = path.split('.');
  const name = head === 'address' ? next : head;
  return name !== undefined && name in EMPTY_JOB_FORM ? (name as Field) : null;
}

function toFieldErrors(serverFields: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, message] of Object.entries(serverFields)) {
    const field = toFormField(path);
    if (field) errors[field] ??= message;
  }
  return errors;
}

export default function PostJobScreen() {
  const api = useApi();
  const navigate = useNavigate();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<JobFormValues>(EMPTY_JOB_FORM);
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const validation = useMemo(() => validateJobForm(values), [values]);
  const paymentCents = dollarsToCents(values.payment);

  function errorFor(field: Field): string | null {
    if (attempted || touched.has(field)) {
      const missing = values[field].trim() === '' ? MISSING_TEXT[field] : undefined;
      const clientError = missing ?? (validation.ok ? undefined : validation.fieldErrors[field]);
      if (clientError) return clientError;
    }
    return serverErrors[field] ?? null;
  }

  function update(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors(({ [field]: _answered, ...others }) => others);
  }

  const touch = (field: Field) => setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));

  /** Value, change and blur wiring of one text control. */
  const bind = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => update(field, event.target.value),
    onBlur: () => touch(field),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    if (!validation.ok) {
      const firstInvalid =
        FIELD_ORDER.find((field) => values[field].trim() === '' && MISSING_TEXT[field]) ??
        FIELD_ORDER.find((field) => validation.fieldErrors[field]) ??
        null;
      showErrorAndFocus(form.current, firstInvalid, () => setAttempted(true));
      return;
    }
    setServerMessage(null);
    setSubmitting(true);
    try {
      // Image upload and the card payment step (later issues) come in here, between a valid form and the job.
      const job = await createJob(api, validation.request);
      toast.success(MSG.jobs.posted);
      navigate(`/jobs/${job.id}`);
    } catch (error) {
      const message = apiErrorText(error, MSG.backend.unexpected);
      const fieldErrors = error instanceof ApiRequestError ? toFieldErrors(error.fields) : {};
      const firstInvalid = FIELD_ORDER.find((field) => fieldErrors[field]) ?? null;
      showErrorAndFocus(form.current, firstInvalid, () => {
        setServerErrors(fieldErrors);
        setServerMessage(message);
        setSubmitting(false);
      });
      toast.error(message);
    }
  }

  return (
    <div className="page page--narrow">
      <PageHeading>Post a Job</PageHeading>
      <p className="page__lead">Describe the task, set a fixed payment, and local workers can apply.</p>
      <form ref={form} className="form card" noValidate onSubmit={submit}>
        <fieldset disabled={submitting} className="form__fields">
          <FormField label="Job Title" error={errorFor('title')}>
            {(control) => <input {...control} {...bind('title')} required maxLength={100} />}
          </FormField>
          <FormField label="Description" error={errorFor('description')}>
            {(control) => <textarea {...control} {...bind('description')} required maxLength={2000} rows={5} />}
          </FormField>

          <FormField label="Street Address" error={errorFor('street')} hint="Shared only with the worker you assign.">
            {(control) => <input {...control} {...bind('street')} required autoComplete="address-line1" />}
          </FormField>
          <div className="form__row">
            <FormField label="City" error={errorFor('city')}>
              {(control) => <input {...control} {...bind('city')} required autoComplete="address-level2" />}
            </FormField>
            <FormField label="State" error={errorFor('state')}>
              {(control) => <input {...control} {...bind('state')} required autoComplete="address-level1" />}
            </FormField>
          </div>

          <div className="form__row">
            <FormField label="Payment ($)" error={errorFor('payment')} hint={`What the worker receives, up to ${formatCents(PAYMENT_LIMITS.maxCents)}.`}>
              {(control) => (
                <input
                  {...control}
                  {...bind('payment')}
                  required
                  inputMode="decimal"
                  placeholder="0.00"
                  // Digits with up to two decimals only; anything else is not taken.
                  onChange={(event) => {
                    const text = event.target.value;
                    if (text === '' || DOLLAR_INPUT_PATTERN.test(text)) update('payment', text);
                  }}
                />
              )}
            </FormField>
            <FormField label="Category" error={errorFor('category')}>
              {(control) => (
                <select {...control} {...bind('category')} required>
                  <option value="">Select a category</option>
                  {JOB_CATEGORIES.map((category) => (
                    <option key={category} value={category}>
                      {category}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </div>

          <div className="form__row">
            <FormField label="Due Date" error={errorFor('date')}>
              {(control) => <input {...control} {...bind('date')} type="date" required min={todayAsCalendarDay()} />}
            </FormField>
            <FormField label="Duration" error={errorFor('duration')}>
              {(control) => <input {...control} {...bind('duration')} required placeholder="e.g. 2 hours" maxLength={100} />}
            </FormField>
          </div>

          <FormField label="Requirements (one per line)" error={errorFor('requirements')}>
            {(control) => <textarea {...control} {...bind('requirements')} rows={3} />}
          </FormField>
          <FormField label="Skills (one per line)" error={errorFor('skills')}>
            {(control) => <textarea {...control} {...bind('skills')} rows={3} />}
          </FormField>

          {paymentCents !== null && paymentCents > 0 ? <PriceSummary paymentCents={paymentCents} /> : null}

          {attempted && !validation.ok && validation.formError ? <FormError>{validation.formError}</FormError> : null}
          {serverMessage ? <FormError>{serverMessage}</FormError> : null}

          <button type="submit" className="button button--block button--large">
            {submitting ? 'Posting...' : 'Post Job'}
          </button>
        </fieldset>
      </form>
    </div>
  );
}
