import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ConversationClosedReason, ConversationView } from '../../../../../shared/api';
import { MAX_CHAT_MESSAGE } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';
import { useAuth } from '../../../lib/auth/useAuth';

/** Quick responses for each side of a conversation (spec 2 §2: toggleable templates). */
const QUICK_RESPONSES = {
  worker: [
    'Is this job still available?',
    'What time works best for you?',
    'Do I need to bring any tools or supplies?',
    "I'm on my way!",
    'The job is done. Please take a look.',
  ],
  poster: ['Thanks for your interest!', 'When are you available?', 'Please bring your own tools.', 'See you then!', 'Thank you, great work!'],
} as const;

/** What the composer's place shows once the conversation is read-only. */
const CLOSED_TEXT: Record<ConversationClosedReason, string> = {
  paid: MSG.applications.chatClosedPaid,
  cancelled: MSG.messaging.closedCancelled,
  assignedElsewhere: MSG.messaging.closedAssignedElsewhere,
};

interface MessageComposerProps {
  conversation: ConversationView;
  onSend(message: { id: string; content: string }): void;
}

/** The input: Enter sends, Shift+Enter adds a line; closed when the conversation is (job paid, cancelled or assigned to another worker), and for a blocked worker. */
export function MessageComposer({ conversation, onSend }: MessageComposerProps) {
  const { userId } = useAuth();
  const [draft, setDraft] = useState('');
  const [showTemplates, setShowTemplates] = useState(false);
  const templatesId = useId();
  const isWorker = conversation.workerId === userId;

  if (conversation.closedReason) return <p className="chat__closed">{CLOSED_TEXT[conversation.closedReason]}</p>;
  if (isWorker && conversation.isBlocked) return <p className="chat__closed">{MSG.applications.chatBlocked}</p>;

  const content = draft.trim();
  function submit(event?: FormEvent): void {
    event?.preventDefault();
    if (!content || content.length > MAX_CHAT_MESSAGE) return;
    // The id is chosen here, once: a retry of this message sends the same id and cannot double it.
    onSend({ id: crypto.randomUUID(), content });
    setDraft('');
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  return (
    <form className="chat__composer" onSubmit={submit}>
      {!isWorker && conversation.isBlocked ? <p className="chat__notice">{MSG.messaging.workerBlocked}</p> : null}
      {showTemplates ? (
        <ul id={templatesId} className="chat__templates" aria-label="Quick responses">
          {QUICK_RESPONSES[isWorker ? 'worker' : 'poster'].map((template) => (
            <li key={template}>
              <button type="button" className="chip" onClick={() => setDraft(template)}>
                {template}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="chat__input-row">
        <button
          type="button"
          className="button button--small button--ghost"
          aria-expanded={showTemplates}
          aria-controls={templatesId}
          onClick={() => setShowTemplates((shown) => !shown)}
        >
          Quick responses
        </button>
        <label className="visually-hidden" htmlFor={`${templatesId}-input`}>
          Message
        </label>
        <textarea
          id={`${templatesId}-input`}
          className="chat__input"
          rows={2}
          placeholder="Type a message... (Enter to send, Shift+Enter for a new line)"
          value={draft}
          maxLength={MAX_CHAT_MESSAGE}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="button" disabled={!content}>
          Send
        </button>
      </div>
      {draft.length > MAX_CHAT_MESSAGE * 0.9 ? (
        <p className="chat__count" aria-live="polite">
          {draft.length}/{MAX_CHAT_MESSAGE}
        </p>
      ) : null}
    </form>
  );
}
