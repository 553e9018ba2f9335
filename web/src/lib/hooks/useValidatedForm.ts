import { useState, type FormEvent, type RefObject } from 'react';
import { showFirstIssue, type FieldProblem } from '../forms';

/** What useValidatedForm needs of a (zod) schema: its safeParse. */
interface FormSchema<Values, Data> {
  safeParse(values: Values): { success: true; data: Data } | { success: false; error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

export interface ValidatedForm<Values extends Record<string, string>> {
  values: Values;
  update(field: keyof Values & string, value: string): void;
  /** The message under a field, or null. */
  fieldError(field: keyof Values & string): string | null;
  /** The message of the form as a whole (the submission failed), or null. */
  formError: string | null;
  submitting: boolean;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
}

interface ValidatedFormOptions<Values, Data> {
  /** The <form>'s ref: a schema's issue focuses the field it names. */
  form: RefObject<HTMLFormElement | null>;
  schema: FormSchema<NoInfer<Values>, Data>;
  initialValues: Values;
  /** Sends the valid form; resolves whether it is finished (the screen moves on, the form stays disabled) or may be sent again. */
  submit(data: Data): Promise<'finished' | 'again'>;
  /** The form's message when `submit` rejects. */
  failureText(error: unknown): string;
}

/**
 * A form of text fields checked by a schema on submit: one message at a time (the first issue,
 * at its field, which takes the focus), disabled while it is sent, the failure's text above
 * its button.
 */
export function useValidatedForm<Values extends Record<string, string>, Data>({ form, schema, initialValues, submit, failureText }: ValidatedFormOptions<Values, Data>): ValidatedForm<Values> {
  type Field = keyof Values & string;
  const [values, setValues] = useState(initialValues);
  const [problem, setProblem] = useState<FieldProblem<Field> | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      showFirstIssue(form.current, parsed.error.issues, setProblem);
      return;
    }
    setProblem(null);
    setSubmitting(true);
    try {
      if ((await submit(parsed.data)) === 'again') setSubmitting(false);
    } catch (error) {
      setProblem({ field: null, message: failureText(error) });
      setSubmitting(false);
    }
  }

  return {
    values,
    update: (field, value) => setValues((current) => ({ ...current, [field]: value })),
    fieldError: (field) => (problem?.field === field ? problem.message : null),
    formError: problem && problem.field === null ? problem.message : null,
    submitting,
    onSubmit: (event) => void send(event),
  };
}
