import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { NOTIFICATION_TYPE_LABELS } from '../../../../../shared/notifications';
import { readUnsubscribeToken, UNSUBSCRIBE_TOKEN_PARAM } from '../../../../../shared/unsubscribe-token';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { FormError } from '../../../lib/components/FormError';
import { PageHeading } from '../../../lib/components/PageHeading';
import { unsubscribeEmail } from '../api/unsubscribe-email';

/**
 * Where an email's "Stop these emails" link leads (issue 25): says which emails the link stops
 * and asks before it does (a link scanner's GET must not unsubscribe anyone); works signed out.
 * Mail clients unsubscribe with one click through the email's List-Unsubscribe header instead.
 */
export default function UnsubscribeScreen() {
  const api = useApi();
  const [params] = useSearchParams();
  const token = params.get(UNSUBSCRIBE_TOKEN_PARAM) ?? '';
  const read = readUnsubscribeToken(token);
  const stop = useMutation({ mutationFn: () => unsubscribeEmail(api, token) });
  const what = read ? NOTIFICATION_TYPE_LABELS[read.subject.type] : '';
  const settingsLink = (
    <Link to="/notification-settings" className="button button--secondary">
      {MSG.unsubscribe.settingsLink}
    </Link>
  );

  return (
    <div className="page page--narrow unsubscribe">
      <PageHeading>{MSG.unsubscribe.title}</PageHeading>
      {!read ? (
        <>
          <FormError>{MSG.unsubscribe.invalidLink}</FormError>
          <p>{settingsLink}</p>
        </>
      ) : stop.isSuccess ? (
        <>
          <p role="status">{MSG.unsubscribe.done(what)}</p>
          <p>{settingsLink}</p>
        </>
      ) : (
        <>
          <p>{MSG.unsubscribe.question(what)}</p>
          {stop.isError && <FormError>{apiErrorText(stop.error, MSG.unsubscribe.failed)}</FormError>}
          <p>
            <button type="button" className="button" disabled={stop.isPending} onClick={() => stop.mutate()}>
              {stop.isPending ? MSG.unsubscribe.working : MSG.unsubscribe.confirm}
            </button>
          </p>
        </>
      )}
    </div>
  );
}
