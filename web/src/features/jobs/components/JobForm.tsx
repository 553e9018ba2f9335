import { useRef, useState, type FormEvent } from 'react';
import { JOB_CATEGORIES } from '../../../../../shared/categories';
import { MSG } from '../../../../../shared/messages';
import { PAYMENT_LIMITS, formatCents } from '../../../../../shared/money';
import { OFFER_LABELS, OFFER_TEXTS } from '../../../../../shared/offers';
import { validateJobForm, type CreateJobRequest, type JobFormValues } from '../../../../../shared/schemas/job';
import { ApiRequestError, apiErrorText } from '../../../lib/api/client';
import { firstFieldWithError, toJobFieldErrors, useJobForm, type JobFieldErrors } from '../hooks/useJobForm';
import { useJobImages, type AttachedImage } from '../hooks/useJobImages';
import { useHiddenCategories } from '../api/fetch-hidden-categories';
import { useToast } from '../../../lib/toast/useToast';
import { showErrorAndFocus } from '../../../lib/forms';
import { todayAsCalendarDay } from '../../../lib/format';
import { FormError } from '../../../lib/components/FormError';
import { FormField } from '../../../lib/components/FormField';
import { ImagePicker } from './ImagePicker';
import { PriceSummary } from './PriceSummary';

interface JobFormProps {
  initialValues: JobFormValues;
  initialImages: readonly AttachedImage[];
  submitLabel: string;
  /** The submit button's text while the job is being saved ("Posting..."). */
  savingLabel: string;
  /** What a failure says when the server gave no text of its own. */
  failureText: string;
  /** Saves the job; a rejection is shown on the form (with the server's field errors). */
  onSubmit(request: CreateJobRequest): Promise<void>;
  /** Shown as a Cancel button when given. */
  onCancel?(): void;
  /** The price can no longer change (a job that was paid for: DECISIONS.md "Money and fees"). */
  paymentLocked?: boolean;
  /** "Only ID-verified workers may apply" as the job has it (issue 47). */
  initialVerifiedWorkersOnly?: boolean;
  /** "Open to offers" as the job has it (issue 45); locked with the price. */
  initialOpenToOffers?: boolean;
}

type Step = 'editing' | 'uploading' | 'saving';

/**
 * The job form of the post page and of 'Edit Job': the fields with live validation, the photos,
 * and the cost before submitting. On submit the new photos are uploaded first, then the job saved.
 */
export function JobForm({
  initialValues,
  initialImages,
  submitLabel,
  savingLabel,
  failureText,
  onSubmit,
  onCancel,
  paymentLocked = false,
  initialVerifiedWorkersOnly = false,
  initialOpenToOffers = false,
}: JobFormProps) {
  const toast = useToast();
  const formElement = useRef<HTMLFormElement>(null);
  const form = useJobForm(initialValues);
  const images = useJobImages(initialImages);
  // A category the admin hid is not offered for a new job; a job already in it keeps it.
  const hidden = useHiddenCategories().data?.items ?? [];
  const categories = JOB_CATEGORIES.filter((category) => category === initialValues.category || !hidden.includes(category));
  const [step, setStep] = useState<Step>('editing');
  const [failure, setFailure] = useState<string | null>(null);
  const [verifiedWorkersOnly, setVerifiedWorkersOnly] = useState(initialVerifiedWorkersOnly);
  const [openToOffers, setOpenToOffers] = useState(initialOpenToOffers);
  const { bind, errorFor } = form;

  function fail(message: string, fieldErrors: JobFieldErrors = {}) {
    showErrorAndFocus(formElement.current, firstFieldWithError(fieldErrors), () => {
      form.showServerErrors(fieldErrors);
      setFailure(message);
      setStep('editing');
    });
    toast.error(message);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step !== 'editing') return;
    if (!form.validation.ok) {
      showErrorAndFocus(formElement.current, form.firstInvalidField, () => {
        form.showAllErrors();
        setFailure(null);
      });
      return;
    }
    setFailure(null);
    setStep('uploading');
    let imageKeys: string[];
    try {
      imageKeys = await images.uploadAll();
    } catch (error) {
      fail(apiErrorText(error, MSG.jobForm.uploadFailed));
      return;
    }
    const request = validateJobForm(form.values, imageKeys, { verifiedWorkersOnly, openToOffers });
    if (!request.ok) {
      fail(request.formError ?? MSG.jobForm.fillAllRequired, request.fieldErrors);
      return;
    }
    setStep('saving');
    try {
      await onSubmit(request.request);
      setStep('editing');
    } catch (error) {
      fail(apiErrorText(error, failureText), error instanceof ApiRequestError ? toJobFieldErrors(error.fields) : {});
    }
  }

  const paymentCents = form.paymentCents;
  return (
    <form ref={formElement} className="form card" noValidate onSubmit={submit}>
      <fieldset disabled={step !== 'editing'} className="form__fields">
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

        <fieldset className="pill-choices" disabled={paymentLocked}>
          <legend>Pricing</legend>
          {[false, true].map((offers) => (
            <label key={String(offers)} className="pill-choice">
              <input type="radio" name="pricing" checked={openToOffers === offers} onChange={() => setOpenToOffers(offers)} />
              {offers ? OFFER_LABELS.openToOffers : OFFER_LABELS.fixedPrice}
            </label>
          ))}
        </fieldset>

        <div className="form__row">
          <FormField
            label="Payment ($)"
            error={errorFor('payment')}
            hint={
              paymentLocked ? MSG.jobs.priceLocked : openToOffers ? OFFER_TEXTS.budgetHint : `What the worker receives, up to ${formatCents(PAYMENT_LIMITS.maxCents)}.`
            }
          >
            {(control) => <input {...control} {...bind('payment')} required readOnly={paymentLocked} inputMode="decimal" placeholder="0.00" />}
          </FormField>
          <FormField label="Category" error={errorFor('category')}>
            {(control) => (
              <select {...control} {...bind('category')} required>
                <option value="">Select a category</option>
                {categories.map((category) => (
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

        <ImagePicker images={images} />

        <div className="field field--check">
          <label>
            <input type="checkbox" name="verifiedWorkersOnly" checked={verifiedWorkersOnly} onChange={(event) => setVerifiedWorkersOnly(event.target.checked)} />{' '}
            {MSG.identity.verifiedOnly}
          </label>
          <p className="field__hint">Workers whose government ID and selfie Stripe checked. Fewer workers can apply.</p>
        </div>

        {paymentCents !== null && paymentCents > 0 ? <PriceSummary paymentCents={paymentCents} /> : null}

        {form.formError ? <FormError>{form.formError}</FormError> : null}
        {failure ? <FormError>{failure}</FormError> : null}

        <div className="job-form__actions">
          <button type="submit" className="button button--large">
            {step === 'uploading' ? 'Uploading images...' : step === 'saving' ? savingLabel : submitLabel}
          </button>
          {onCancel ? (
            <button type="button" className="button button--large button--secondary" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </fieldset>
    </form>
  );
}
