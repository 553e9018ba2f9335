import type { BulkResolveResult, Dispute, DisputeCenterState, DisputeThread, ResolutionTemplate } from '../../../shared/api.js';
import { ADMIN_DISPUTE_VIEWS, type AdminDisputeView } from '../../../shared/disputes.js';
import { bulkResolveSchema, disputeMessageSchema, disputePrioritySchema, fileDisputeSchema, resolveDisputeSchema } from '../../../shared/schemas/dispute.js';
import { bulkResolveDisputes, listAdminDisputes, resolveDispute, setDisputePriority } from '../dispute-admin.js';
import { pushDisputeEvent } from '../dispute-live.js';
import { listResolutionTemplates } from '../dispute-templates.js';
import { disputeCenterState, disputeThread, fileDispute, listDisputesOf, postDisputeMessage, type DisputeChange } from '../disputes.js';
import { routeGroup } from '../../lib/http.js';

/** After a committed dispute change (its notices went out with it): the thread's watchers see the new state. */
async function published({ dispute }: DisputeChange): Promise<Dispute> {
  await pushDisputeEvent(dispute, { type: 'dispute.updated', dispute });
  return dispute;
}

const adminView = (status: string | undefined): AdminDisputeView =>
  ADMIN_DISPUTE_VIEWS.includes(status as AdminDisputeView) ? (status as AdminDisputeView) : 'open';

export const handler = routeGroup('disputes', {
  /** The Dispute Center: the form, the viewer's dispute under review, or 'unable'. */
  'GET /jobs/{id}/dispute': async ({ params, caller }): Promise<DisputeCenterState> => disputeCenterState(params.id ?? '', caller.userId),

  'POST /jobs/{id}/dispute': async (request) => {
    const input = request.body(fileDisputeSchema);
    const dispute = await published(await fileDispute(request.params.id ?? '', request.caller.userId, input));
    return { status: 201, body: dispute };
  },

  /** The dispute panels: where the user is reporter or reported, newest first. */
  'GET /me/disputes': async ({ caller }): Promise<{ items: Dispute[] }> => ({ items: await listDisputesOf(caller.userId) }),

  'GET /disputes/{id}/messages': async ({ params, caller }): Promise<DisputeThread> => disputeThread(params.id ?? '', caller),

  /** A party or the admin writes in an open thread; both parties and the admin see it live. */
  'POST /disputes/{id}/messages': async (request) => {
    const { message: text } = request.body(disputeMessageSchema);
    const { dispute, message } = await postDisputeMessage(request.params.id ?? '', request.caller, text);
    await pushDisputeEvent(dispute, { type: 'dispute.message', message });
    return { status: 201, body: message };
  },

  /** Open or resolved disputes by priority then newest, 50 a page. */
  'GET /admin/disputes': async ({ query }) => listAdminDisputes(adminView(query.status), query.cursor),

  'PUT /admin/disputes/{id}/priority': async (request): Promise<Dispute> => {
    const { priority } = request.body(disputePrioritySchema);
    return setDisputePriority(request.params.id ?? '', request.caller.userId, priority);
  },

  'POST /admin/disputes/{id}/resolve': async (request): Promise<Dispute> => {
    const input = request.body(resolveDisputeSchema);
    return published(await resolveDispute(request.params.id ?? '', request.caller.userId, input));
  },

  /**
   * Resolves a selection by template; the answer says which were resolved and why others were
   * not. The parties learn of it from their live notices (their panels refresh on them).
   */
  'POST /admin/disputes/bulk-resolve': async (request): Promise<BulkResolveResult> => {
    const { disputeIds, templateId } = request.body(bulkResolveSchema);
    return bulkResolveDisputes(disputeIds, request.caller.userId, templateId);
  },

  'GET /admin/dispute-templates': async (): Promise<{ items: ResolutionTemplate[] }> => ({ items: await listResolutionTemplates() }),
});
