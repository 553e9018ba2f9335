import { flushSync } from 'react-dom';
import { MSG } from '../../../shared/messages';

/**
 * Applies a validation result to the screen, then focuses the field it names, so that the
 * field is read out together with its (now rendered) error.
 */
export function showErrorAndFocus(form: HTMLFormElement | null, fieldName: string | null, show: () => void): void {
  flushSync(show);
  if (!form || !fieldName) return;
  const field = form.elements.namedItem(fieldName);
  if (field instanceof HTMLElement) field.focus();
}

/** A form's problem: the field it belongs to, or null for the form as a whole. */
export interface FieldProblem<Field extends string> {
  field: Field | null;
  message: string;
}

/** Shows the first of a schema's issues at its field (see showErrorAndFocus). */
export function showFirstIssue<Field extends string>(
  form: HTMLFormElement | null,
  issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>,
  show: (problem: FieldProblem<Field>) => void,
): void {
  const issue = issues[0];
  const field = (issue?.path[0] as Field | undefined) ?? null;
  showErrorAndFocus(form, field, () => show({ field, message: issue?.message ?? MSG.auth.allFieldsRequired }));
}
