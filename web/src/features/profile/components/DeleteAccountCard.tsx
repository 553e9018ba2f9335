import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { forgetStoredSession } from '../../../lib/auth/session';
import { useSignOut } from '../../../lib/auth/useSignOut';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { FormError } from '../../../lib/components/FormError';
import { FormField } from '../../../lib/components/FormField';
import { useToast } from '../../../lib/toast/useToast';
import { deleteAccount } from '../api/delete-account';

/**
 * The danger zone: deleting the account, confirmed in a dialog that spells out what goes and
 * what stays and asks for the password again. A refusal (work, money or a dispute pending)
 * is shown in the dialog with its reason; after the deletion the user's tokens leave this
 * browser at once, they are signed out everywhere, and land on the home page with a goodbye.
 */
export function DeleteAccountCard() {
  const api = useApi();
  const toast = useToast();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setOpen(false);
    setPassword('');
    setError(null);
  }

  async function confirm() {
    if (!password) {
      setError(MSG.accountDeletion.passwordRequired);
      return;
    }
    setBusy(true);
    try {
      await deleteAccount(api, { password });
    } catch (failure) {
      setError(apiErrorText(failure, MSG.accountDeletion.failed));
      setBusy(false);
      return;
    }
    forgetStoredSession();
    await signOut({ everywhere: true });
    toast.success(MSG.accountDeletion.deleted);
  }

  return (
    <section className="card card--danger" aria-labelledby="danger-zone-heading">
      <h2 id="danger-zone-heading">Danger Zone</h2>
      <p className="muted">Deleting your account cannot be undone.</p>
      <button type="button" className="button button--danger button--block" onClick={() => setOpen(true)}>
        Delete account
      </button>
      {open ? (
        <ConfirmDialog title="Delete your account?" confirmLabel="Delete my account" busy={busy} onConfirm={() => void confirm()} onCancel={close}>
          <p>This cannot be undone. At once:</p>
          <ul>
            <li>you can no longer sign in;</li>
            <li>your name, email, bio, skills, photo, location, alert settings and payment account link are removed;</li>
            <li>your open jobs are withdrawn (their payments refunded) and your pending applications withdrawn.</li>
          </ul>
          <p>Payments, reviews and messages stay for the other party and the law, shown as &lsquo;Deleted user&rsquo;. You cannot delete your account while a job is assigned, awaits its payment release, or a dispute is open.</p>
          <FormField label="Password">
            {(control) => (
              <input
                {...control}
                type="password"
                className="field__input"
                autoComplete="current-password"
                value={password}
                onChange={(event) => {
                  setPassword(event.target.value);
                  setError(null);
                }}
              />
            )}
          </FormField>
          {error ? <FormError>{error}</FormError> : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
