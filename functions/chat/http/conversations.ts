import { isMessagePosition } from '../../../shared/chat.js';
import { sendMessageSchema, startConversationSchema } from '../../../shared/schemas/chat.js';
import { MSG } from '../../../shared/messages.js';
import {
  getConversationDetail,
  listConversations,
  listMessages,
  markConversationRead,
  sendMessage,
  setWorkerBlocked,
  startConversation,
  unreadTotal,
} from '../conversations.js';
import { badRequest } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('conversations', {
  'GET /conversations': async ({ caller }) => ({ items: await listConversations(caller.userId) }),

  'POST /conversations': async ({ caller, body }) => {
    const { conversation, created } = await startConversation(caller.userId, body(startConversationSchema));
    return { status: created ? 201 : 200, body: conversation };
  },

  'GET /conversations/{id}': async ({ caller, params }) => getConversationDetail(caller.userId, params.id ?? ''),

  'GET /conversations/{id}/messages': async ({ caller, params, query }) => {
    const range = { before: query.before || undefined, after: query.after || undefined };
    if (Object.values(range).some((position) => position !== undefined && !isMessagePosition(position))) throw badRequest(MSG.messaging.invalidPosition);
    return listMessages(caller.userId, params.id ?? '', range);
  },

  'POST /conversations/{id}/messages': async ({ caller, params, body }) => {
    const request = body(sendMessageSchema);
    const { created, ...result } = await sendMessage(caller.userId, params.id ?? '', request);
    return { status: created ? 201 : 200, body: result };
  },

  'POST /conversations/{id}/read': async ({ caller, params }) => {
    await markConversationRead(caller.userId, params.id ?? '');
    return { status: 204 };
  },

  'PUT /conversations/{id}/block': async ({ caller, params }) => setWorkerBlocked(caller.userId, params.id ?? '', true),

  'DELETE /conversations/{id}/block': async ({ caller, params }) => setWorkerBlocked(caller.userId, params.id ?? '', false),

  'GET /me/unread-messages': async ({ caller }) => ({ total: await unreadTotal(caller.userId) }),
});
