import { flushSync } from 'react-dom';

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
