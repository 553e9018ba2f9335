import * as z from '../zod.js';
import { UUID } from '../chat.js';
import { MAX_CHAT_MESSAGE } from '../limits.js';
import { MSG } from '../messages.js';
import { freeText } from '../text.js';

// Apart from shared/chat.ts's rules: the web app's header keeps the chat's cache with those, and
// the schemas would bring zod into every signed-in page's first load.

/** The body of POST /conversations: the worker is the caller unless the poster names one. */
export const startConversationSchema = z.object({
  jobId: z.string().check(z.regex(UUID, MSG.jobs.notFound)),
  workerId: z.optional(z.string().check(z.regex(UUID, MSG.messaging.notAWorker))),
});
export type StartConversationRequest = z.output<typeof startConversationSchema>;

/** The body of POST /conversations/{id}/messages. */
export const sendMessageSchema = z.object({
  id: z.string().check(z.regex(UUID, MSG.messaging.sendFailed)),
  content: freeText(z.minLength(1, MSG.messaging.messageEmpty), z.maxLength(MAX_CHAT_MESSAGE, MSG.messaging.messageTooLong)),
});
export type SendMessageRequest = z.output<typeof sendMessageSchema>;
