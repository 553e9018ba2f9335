import { useNow } from '../../../lib/hooks/useNow';
import { MSG } from '../../../../../shared/messages';

const RECENT_MS = 7 * 24 * 3600 * 1000;

const monthAndYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });

/** "March 2025", or 'Recently joined' during the first week. */
export function memberSinceText(createdAt: string, now: number): string {
  const created = Date.parse(createdAt);
  return now - created < RECENT_MS ? MSG.profileCard.recentlyJoined : monthAndYear.format(created);
}

const HOUR_MS = 3600 * 1000;

export function MemberSinceCard({ createdAt }: { createdAt: string }) {
  const now = useNow(HOUR_MS);
  return (
    <section className="card" aria-labelledby="member-since-heading">
      <h2 id="member-since-heading">Member Since</h2>
      <p className="member-since">{memberSinceText(createdAt, now)}</p>
    </section>
  );
}
