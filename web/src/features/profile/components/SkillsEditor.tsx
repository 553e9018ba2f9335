import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { MAX_SKILLS } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';

/** The longest skill the server accepts (shared/schemas/profile.ts). */
const MAX_SKILL_LENGTH = 50;

interface SkillsEditorProps {
  skills: string[];
  onChange(skills: string[]): void;
  /** A problem the server reported for the skills. */
  error: string | null;
}

/** Skills as removable chips; a new one is added with Enter or the Add button, trimmed and only once. */
export function SkillsEditor({ skills, onChange, error }: SkillsEditorProps) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const shownError = problem ?? error;

  function add() {
    const skill = draft.trim();
    if (!skill) return;
    if (skills.some((existing) => existing.toLowerCase() === skill.toLowerCase())) {
      setProblem(MSG.profileCard.duplicateSkill(skill));
      return;
    }
    if (skills.length >= MAX_SKILLS) {
      setProblem(MSG.profile.maxSkills);
      return;
    }
    onChange([...skills, skill]);
    setDraft('');
    setProblem(null);
  }

  function remove(skill: string) {
    onChange(skills.filter((existing) => existing !== skill));
    setProblem(null);
    // The chip that had focus is gone.
    input.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    // Enter adds the skill here; it must not submit the whole profile form.
    event.preventDefault();
    add();
  }

  return (
    <div className="field skills-editor">
      <label htmlFor={inputId} className="field__label">
        Skills
      </label>
      <div className="skills-editor__add">
        <input
          ref={input}
          id={inputId}
          name="skill"
          maxLength={MAX_SKILL_LENGTH}
          value={draft}
          aria-describedby={shownError ? `${hintId} ${errorId}` : hintId}
          {...(shownError ? { 'aria-invalid': true } : {})}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="button button--secondary" onClick={add}>
          Add
        </button>
      </div>
      <p id={hintId} className="field__hint">
        Press Enter or Add after each skill. {skills.length}/{MAX_SKILLS} skills.
      </p>
      {shownError ? (
        <p id={errorId} className="field__error" role="alert">
          {shownError}
        </p>
      ) : null}
      {skills.length > 0 ? (
        <ul className="chips skills-editor__chips" aria-label="Your skills">
          {skills.map((skill) => (
            <li key={skill}>
              <button type="button" className="chip chip--removable" aria-label={`Remove ${skill}`} onClick={() => remove(skill)}>
                {skill}
                <span aria-hidden="true"> ×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
