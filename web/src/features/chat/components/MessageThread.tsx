import { useEffect, useRef } from 'react';
import type { ChatMessage } from '../../../../../shared/api';
import { useAuth } from '../../../lib/auth/useAuth';

/** A message this tab sent that the server has not confirmed: on its way, or failed (retry keeps its id). */
export interface OutgoingMessage {
  id: string;
  content: string;
  createdAt: string;
  status: 'sending' | 'failed';
  error?: string;
}

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

function formatSentAt(iso: string): string {
  const sent = new Date(iso);
  return sent.toDateString() === new Date().toDateString() ? timeOfDay.format(sent) : dayAndTime.format(sent);
}

interface MessageThreadProps {
  messages: readonly ChatMessage[];
  outbox: readonly OutgoingMessage[];
  onRetry(message: OutgoingMessage): void;
  olderAvailable: boolean;
  loadingOlder: boolean;
  onLoadOlder(): void;
}

/**
 * The bubbles, oldest first, with time and read state; this tab's unconfirmed messages after
 * them. A live log: screen readers announce arriving messages. It scrolls to the newest
 * message whenever one arrives.
 */
export function MessageThread({ messages, outbox, onRetry, olderAvailable, loadingOlder, onLoadOlder }: MessageThreadProps) {
  const { userId } = useAuth();
  const end = useRef<HTMLLIElement>(null);
  const confirmed = new Set(messages.map((message) => message.id));
  const pending = outbox.filter((message) => !confirmed.has(message.id));
  const newest = pending.at(-1)?.id ?? messages.at(-1)?.id;

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [newest]);

  return (
    <div className="chat__thread">
      {olderAvailable ? (
        <button type="button" className="button button--small button--ghost chat__older" disabled={loadingOlder} onClick={onLoadOlder}>
          {loadingOlder ? 'Loading...' : 'Load earlier messages'}
        </button>
      ) : null}
      {messages.length === 0 && pending.length === 0 ? <p className="chat__empty">No messages yet. Say hello!</p> : null}
      {/* The live log wraps the list, so the bubbles stay items of a list for a screen reader. */}
      <div role="log" aria-live="polite" aria-label="Messages">
        <ol className="chat__messages">
          {messages.map((message) => {
            const mine = message.senderId === userId;
            return (
              <li key={message.id} className={`bubble ${mine ? 'bubble--mine' : 'bubble--theirs'}`}>
                <p className="bubble__text">{message.content}</p>
                <span className="bubble__meta">
                  <time dateTime={message.createdAt}>{formatSentAt(message.createdAt)}</time>
                  {mine ? <span className="bubble__state">{message.read ? 'Read' : 'Sent'}</span> : null}
                </span>
              </li>
            );
          })}
          {pending.map((message) => (
            <li key={message.id} className={`bubble bubble--mine bubble--${message.status}`}>
              <p className="bubble__text">{message.content}</p>
              <span className="bubble__meta">
                {message.status === 'sending' ? (
                  <span className="bubble__state">Sending...</span>
                ) : (
                  <>
                    <span className="bubble__state" role="alert">
                      {message.error}
                    </span>
                    <button type="button" className="bubble__retry" onClick={() => onRetry(message)}>
                      Retry
                    </button>
                  </>
                )}
              </span>
            </li>
          ))}
          <li ref={end} className="chat__end" aria-hidden="true" />
        </ol>
      </div>
    </div>
  );
}
