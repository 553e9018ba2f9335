import { useId, useRef, useState, type FormEvent } from 'react';

interface JobSearchFormProps {
  /** The search in effect. */
  query: string;
  onSearch(query: string): void;
}

/** The search box: Search (or Enter) applies the words, Clear drops them. */
export function JobSearchForm({ query, onSearch }: JobSearchFormProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(query);
  const [shownQuery, setShownQuery] = useState(query);
  // The search can change from outside (a link, Back): the box follows it.
  if (query !== shownQuery) {
    setShownQuery(query);
    setDraft(query);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(draft.trim());
  }

  function clear() {
    setDraft('');
    onSearch('');
    // The Clear button goes away with the text; the box keeps the keyboard user's place.
    input.current?.focus();
  }

  return (
    <form role="search" className="job-search" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        Search jobs
      </label>
      <input
        ref={input}
        id={inputId}
        type="search"
        className="job-search__input"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder="Search by title, description, category or location"
        maxLength={100}
        enterKeyHint="search"
      />
      <div className="job-search__buttons">
        <button type="submit" className="button">
          Search
        </button>
        {draft || query ? (
          <button type="button" className="button button--secondary" onClick={clear}>
            Clear
          </button>
        ) : null}
      </div>
    </form>
  );
}
