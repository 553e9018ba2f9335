import { MAX_PENDING_APPLICATIONS } from '../../../../../shared/limits';

/** 'N/4 applications' and how many spots remain (spec 2 §2). */
export function ApplicationSpots({ pending }: { pending: number }) {
  const remaining = Math.max(0, MAX_PENDING_APPLICATIONS - pending);
  return (
    <p className="application-spots">
      <strong>
        {pending}/{MAX_PENDING_APPLICATIONS}
      </strong>{' '}
      applications · {remaining} {remaining === 1 ? 'spot' : 'spots'} remaining
    </p>
  );
}
