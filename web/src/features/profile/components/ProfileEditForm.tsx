import { useRef, useState, type FormEvent } from 'react';
import type { OwnProfile } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { profileUpdateSchema } from '../../../../../shared/schemas/profile';
import { ApiRequestError } from '../../../lib/api/client';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';
import { showErrorAndFocus } from '../../../lib/forms';
import { FormError } from '../../../lib/components/FormError';
import { FormField } from '../../../lib/components/FormField';
import { SkillsEditor } from './SkillsEditor';

/** The bio's limit (spec 1 §5), shown as a counter under the box. */
const MAX_BIO_LENGTH = 500;

interface EditableProfile {
  name: string;
  bio: string;
  location: string;
  skills: string[];
}

type EditableField = keyof EditableProfile;

interface FormProblem {
  /** Field -> message (the browser's check or the server's 400 `fields`). */
  fields: Partial<Record<EditableField, string>>;
  /** A problem with no field of its own: 403 security refusal, 429 rate limit, network. */
  message: string | null;
}

function isEditableField(field: unknown): field is EditableField {
  return field === 'name' || field === 'bio' || field === 'location' || field === 'skills';
}

/** The server's answer in the form's terms: its field errors, and its message when no field is named. */
function problemFromServer(error: unknown): FormProblem {
  if (!(error instanceof ApiRequestError)) return { fields: {}, message: MSG.profile.updateFailed };
  const fields = Object.fromEntries(Object.entries(error.fields).filter(([field]) => isEditableField(field)));
  return { fields, message: Object.keys(fields).length > 0 ? null : error.message };
}

interface ProfileEditFormProps {
  id: string;
  profile: OwnProfile;
  /** Called once the changes are saved (cancelling is the page's Edit Profile / Cancel toggle). */
  onSaved(): void;
}

/** Name, bio, location and skills; validated as the server will, then saved with PATCH /me. */
export function ProfileEditForm({ id, profile, onSaved }: ProfileEditFormProps) {
  const { updateProfile } = useAuth();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<EditableProfile>({
    name: profile.name,
    bio: profile.bio,
    location: profile.location,
    skills: profile.skills,
  });
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saving, setSaving] = useState(false);

  const update = <F extends EditableField>(field: F, value: EditableProfile[F]) => setValues((current) => ({ ...current, [field]: value }));
  const fieldError = (field: EditableField) => problem?.fields[field] ?? null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const parsed = profileUpdateSchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = isEditableField(issue?.path[0]) ? issue.path[0] : null;
      const message = issue?.message ?? MSG.profile.updateFailed;
      showErrorAndFocus(form.current, field === 'skills' ? 'skill' : field, () =>
        setProblem(field ? { fields: { [field]: message }, message: null } : { fields: {}, message }),
      );
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      // The raw values: the server sanitises them itself and answers what it stored.
      await updateProfile(values);
      toast.success(MSG.profile.updated);
      onSaved();
    } catch (error) {
      setProblem(problemFromServer(error));
      setSaving(false);
    }
  }

  return (
    <form id={id} ref={form} className="card form profile-edit" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Edit Profile</h2>
      <fieldset disabled={saving} className="form__fields">
        <FormField label="Full Name" error={fieldError('name')}>
          {(control) => (
            <input
              {...control}
              name="name"
              autoComplete="name"
              required
              maxLength={100}
              // Opening the editor leads straight to its first field.
              autoFocus
              value={values.name}
              onChange={(e) => update('name', e.target.value)}
            />
          )}
        </FormField>
        <FormField label="Bio" error={fieldError('bio')} hint={`${values.bio.length}/${MAX_BIO_LENGTH} characters`}>
          {(control) => (
            <textarea
              {...control}
              name="bio"
              rows={4}
              maxLength={MAX_BIO_LENGTH}
              value={values.bio}
              onChange={(e) => update('bio', e.target.value)}
            />
          )}
        </FormField>
        <FormField label="Location" error={fieldError('location')} hint="City and state, e.g. Austin, TX">
          {(control) => (
            <input
              {...control}
              name="location"
              autoComplete="address-level2"
              maxLength={100}
              value={values.location}
              onChange={(e) => update('location', e.target.value)}
            />
          )}
        </FormField>
        <SkillsEditor skills={values.skills} onChange={(skills) => update('skills', skills)} error={fieldError('skills')} />
        {problem?.message ? <FormError>{problem.message}</FormError> : null}
        <div className="button-row">
          <button type="submit" className="button">
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
