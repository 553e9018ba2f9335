import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { DISPUTE_TYPES, type DisputeType } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError } from '../../../lib/api/client';
import { fileDispute } from '../api/file-dispute';
import { useApi } from '../../../lib/api/useApi';
import { disputeKeys } from '../api/dispute-keys';
import { useToast } from '../../../lib/toast/useToast';
import { FormField } from '../../../lib/components/FormField';

const TYPE_LABELS: Record<DisputeType, string> = { payment: 'Payment', quality: 'Work quality', behavior: 'Behavior', general: 'General' };

interface DisputeFormProps {
  /** The job disputed; null while a selector (the dashboards' dialog) has none chosen. */
  jobId: string | null;
  /** Rendered first inside the form (the dialog's job selector). */
  jobSelector?: ReactNode;
  onFiled?(): void;
}

/**
 * The Submit a Dispute form (spec 2 §2, §5): a type and a description of 4 rows, both
 * required. A second filing (here or in another tab) answers 409: the views refresh and show
 * 'Dispute Under Review'.
 */
export function DisputeForm({ jobId, jobSelector, onFiled }: DisputeFormProps) {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [type, setType] = useState<DisputeType | ''>('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const file = useMutation({
    mutationFn: (request: { jobId: string; type: DisputeType; description: string }) =>
      fileDispute(api, request.jobId, { type: request.type, description: request.description }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: disputeKeys.all }),
    onSuccess: () => {
      toast.success(MSG.disputes.submitted);
      setType('');
      setDescription('');
      onFiled?.();
    },
    onError: (failure) => {
      if (failure instanceof ApiRequestError && failure.status === 409) return;
      toast.error(failure instanceof ApiRequestError ? failure.message : MSG.disputes.failedToSubmit);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!jobId) return setError(MSG.disputes.selectJob);
    if (!type || !description.trim()) return setError(MSG.disputes.fillRequired);
    setError(null);
    file.mutate({ jobId, type, description: description.trim() });
  };

  return (
    <form className="form dispute-form" onSubmit={submit} noValidate>
      <div className="form__fields">
        {jobSelector}
        <FormField label="Dispute type">
          {(control) => (
            <select {...control} value={type} onChange={(event) => setType(event.target.value as DisputeType | '')}>
              <option value="">Choose a type</option>
              {DISPUTE_TYPES.map((value) => (
                <option key={value} value={value}>
                  {TYPE_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Description" hint="What happened, and what outcome you are hoping for.">
          {(control) => <textarea {...control} rows={4} value={description} onChange={(event) => setDescription(event.target.value)} />}
        </FormField>
        {error ? (
          <p className="field__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={file.isPending}>
        {file.isPending ? 'Submitting...' : MSG.disputes.submitDispute}
      </button>
    </form>
  );
}
