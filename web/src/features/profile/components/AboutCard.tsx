import type { OwnProfile } from '../../../../../shared/api';

/** What others learn about the user: the bio and the skills. */
export function AboutCard({ profile }: { profile: OwnProfile }) {
  return (
    <section className="card" aria-labelledby="about-heading">
      <h2 id="about-heading">About</h2>
      {profile.bio ? (
        <p className="preserve-lines">{profile.bio}</p>
      ) : (
        <p className="muted">No bio yet. Use Edit Profile to tell people about your experience.</p>
      )}
      <h3>Skills</h3>
      {profile.skills.length > 0 ? (
        <ul className="chips">
          {profile.skills.map((skill) => (
            <li key={skill} className="chip">
              {skill}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No skills added yet.</p>
      )}
    </section>
  );
}
