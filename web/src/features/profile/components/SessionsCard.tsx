import { useState } from 'react';
import { useSignOut } from '../../../lib/auth/useSignOut';
import { useToast } from '../../../lib/toast/useToast';
import { MSG } from '../../../../../shared/messages';

/** Ends every session of the account, on this device and all others (a lost phone, a shared computer). */
export function SessionsCard() {
  const signOut = useSignOut();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  async function signOutEverywhere() {
    setBusy(true);
    if (await signOut({ everywhere: true })) toast.success(MSG.profileCard.signedOutEverywhere);
  }

  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Signed-in Devices</h2>
      <p className="muted">Left your account signed in on a shared or lost device? Sign out everywhere at once.</p>
      <button type="button" className="button button--secondary button--block" disabled={busy} onClick={() => void signOutEverywhere()}>
        Sign Out Everywhere
      </button>
    </section>
  );
}
