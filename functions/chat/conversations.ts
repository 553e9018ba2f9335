import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ChatMessage, ConversationClosedReason, ConversationDetail, ConversationView, LiveMessage, Page } from '../../shared/api.js';
import { conversationId, messagePosition, parseConversationId } from '../../shared/chat.js';
import type { SendMessageRequest } from '../../shared/schemas/chat.js';
import { MSG } from '../../shared/messages.js';
import { batchGet } from '../lib/batch.js';
import { db, tableName } from '../lib/db.js';
import { badRequest, conflict, forbidden, notFound, tooManyRequests, type HttpError } from '../lib/errors.js';
import { distinctAttemptCount } from '../lib/rate-limit.js';
import { isSuspendedProfile } from '../lib/suspension.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';
import { LostRace, TransactionRefused, retryLostRaces, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { logger } from '../lib/logger.js';
import { notifyAwayRecipient } from './away-messages.js';
import { existingJob, getJob, type JobItem } from '../jobs/jobs.js';
import { notificationWrites } from '../notifications/notifications.js';
import { getProfile, toPublicProfile, type ProfileItem } from '../people/profiles.js';
import { workerQuestionNotification } from './worker-questions.js';

type Party = 'poster' | 'worker';

export interface ConversationItem {
  pk: string;
  sk: string;
  id: string;
  jobId: string;
  jobTitle: string;
  posterId: string;
  workerId: string;
  initiatedBy: string;
  isBlocked: boolean;
  /** Unread messages of each party, and the position up to which each has read. */
  posterUnread: number;
  workerUnread: number;
  posterReadUpTo?: string;
  workerReadUpTo?: string;
  /** The newest message's position: each send requires it unchanged, so positions only grow. */
  lastPosition?: string;
  lastMessage?: ConversationView['lastMessage'];
  /** When the poster was told of the worker's first question (once per conversation). */
  questionNotifiedAt?: string;
  createdAt: string;
  updatedAt: string;
}

interface MessageItem {
  id: string;
  conversationId: string;
  senderId: string;
  content: string;
  createdAt: string;
  position: string;
}

const MESSAGE_PAGE = 50;
/** The conversation list: the newest this many of each side (a user is poster or worker, rarely both). */
const CONVERSATION_LIST_LIMIT = 100;

const partyOf = (conversation: ConversationItem, userId: string): Party | null =>
  conversation.posterId === userId ? 'poster' : conversation.workerId === userId ? 'worker' : null;
const otherParty = (party: Party): Party => (party === 'poster' ? 'worker' : 'poster');
const partyId = (conversation: ConversationItem, party: Party) => (party === 'poster' ? conversation.posterId : conversation.workerId);

function conversationKey(id: string) {
  const parsed = parseConversationId(id);
  return parsed ? keys.conversation(parsed.jobId, parsed.workerId) : null;
}

async function readConversation(id: string, consistentRead = false): Promise<ConversationItem | undefined> {
  const key = conversationKey(id);
  if (!key) return undefined;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistentRead }));
  return Item as ConversationItem | undefined;
}

/** The conversation if the caller is one of its two parties; anyone else (the admin too) is told it does not exist. */
async function conversationOf(userId: string, id: string, consistentRead = false): Promise<{ conversation: ConversationItem; party: Party }> {
  const conversation = await readConversation(id, consistentRead);
  const party = conversation && partyOf(conversation, userId);
  if (!conversation || !party) throw notFound(MSG.messaging.conversationNotFound);
  return { conversation, party };
}

function toChatMessage(item: MessageItem, conversation: ConversationItem): ChatMessage {
  const recipient = otherParty(partyOf(conversation, item.senderId) ?? 'worker');
  const readUpTo = conversation[`${recipient}ReadUpTo`];
  return {
    id: item.id,
    conversationId: item.conversationId,
    senderId: item.senderId,
    content: item.content,
    read: readUpTo !== undefined && readUpTo >= item.position,
    createdAt: item.createdAt,
    position: item.position,
  };
}

/**
 * Why a conversation takes no more messages from either party, or null while it does (issue 23:
 * workers ask questions on open jobs; after that only the assigned worker talks to the poster).
 * Open: every conversation of the job. Assigned or completed: only the assigned worker's; the
 * others stay readable. Paid or cancelled: none. (`awaiting_payment` never has one: a job gets
 * its first conversation once open, and never goes back.) `stillWritable` is the same rule
 * as a condition on the job item.
 */
function closedReason(job: JobItem, conversation: Pick<ConversationItem, 'workerId'>): ConversationClosedReason | null {
  switch (job.status) {
    case 'open':
      return null;
    case 'assigned':
    case 'completed':
      return job.workerId === conversation.workerId ? null : 'assignedElsewhere';
    case 'paid':
      return 'paid';
    default:
      return 'cancelled';
  }
}

/** closedReason's rule as a check of the job item, in the send's transaction: a send cannot slip past an assignment. */
function stillWritable(conversation: Pick<ConversationItem, 'jobId' | 'workerId'>): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.job(conversation.jobId),
      ConditionExpression: 'attribute_exists(pk) AND (#status = :open OR (#status IN (:assigned, :completed) AND workerId = :worker))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':open': 'open', ':assigned': 'assigned', ':completed': 'completed', ':worker': conversation.workerId },
    },
  };
}

/** The refusal of a send to a closed conversation: the texts a start would answer in the same state. */
function closedRefusal(reason: ConversationClosedReason, party: Party): HttpError {
  if (reason === 'paid') return forbidden(MSG.applications.messagingClosedForCompleted);
  if (reason === 'cancelled') return conflict(MSG.jobs.noLongerAvailable);
  return conflict(party === 'poster' ? MSG.messaging.onlyAssignedWorker : MSG.applications.notAvailable);
}

function toView(conversation: ConversationItem, viewer: Party, other: ProfileItem | undefined, job: JobItem | undefined): ConversationView {
  const jobStatus = job?.status ?? null;
  const closed = job ? closedReason(job, conversation) : null;
  return {
    id: conversation.id,
    jobId: conversation.jobId,
    jobTitle: conversation.jobTitle,
    jobStatus,
    posterId: conversation.posterId,
    workerId: conversation.workerId,
    initiatedBy: conversation.initiatedBy,
    isBlocked: conversation.isBlocked,
    isClosed: closed !== null,
    closedReason: closed,
    otherParty: other ? toPublicProfile(other) : null,
    unreadCount: conversation[`${viewer}Unread`] ?? 0,
    lastMessage: conversation.lastMessage ?? null,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
  };
}

async function viewOf(conversation: ConversationItem, viewer: Party): Promise<ConversationView> {
  const [other, job] = await Promise.all([getProfile(partyId(conversation, otherParty(viewer))), getJob(conversation.jobId)]);
  return toView(conversation, viewer, other, job);
}

/**
 * Who may start a new conversation on a job (spec 2 §6: workers ask questions on open jobs;
 * the poster messages applicants; once the job is assigned only its worker talks to the
 * poster): undefined when the pair may, else the refusal. A paid job's conversation can be
 * reopened to read, never started; a cancelled job's neither (it has no worker any more).
 */
function startRefusal(job: JobItem, workerId: string, callerIsPoster: boolean, applied: boolean): HttpError | undefined {
  if (job.status === 'paid') return forbidden(MSG.applications.messagingClosedForCompleted);
  if (job.status === 'cancelled') return conflict(MSG.jobs.noLongerAvailable);
  if (job.status !== 'open' && job.workerId !== workerId) {
    return conflict(callerIsPoster ? MSG.messaging.onlyAssignedWorker : MSG.applications.notAvailable);
  }
  if (callerIsPoster && !applied) return forbidden(MSG.messaging.notAnApplicant);
  return undefined;
}

/**
 * Starts the conversation of a job and a worker, or finds the one they already have (the key
 * allows one per pair; an existing one stays readable whatever the job became). The worker
 * starts it about a job they may do; the poster with a worker who applied. Written in one
 * transaction with a check of the job (and of the application) as the decision read them, so
 * it cannot slip in while the job is being assigned to someone else.
 */
export async function startConversation(callerId: string, input: { jobId: string; workerId?: string }): Promise<{ conversation: ConversationView; created: boolean }> {
  return retryLostRaces(() => attemptStart(callerId, input), { exhaustedMessage: MSG.applications.startConversationFailed });
}

async function attemptStart(callerId: string, input: { jobId: string; workerId?: string }): Promise<{ conversation: ConversationView; created: boolean }> {
  const job = await getJob(input.jobId, { consistentRead: true });
  if (!job || job.status === 'awaiting_payment') throw notFound(MSG.jobs.notFound);
  const callerIsPoster = job.posterId === callerId;
  const workerId = callerIsPoster ? input.workerId : (input.workerId ?? callerId);
  if (!workerId) throw badRequest(MSG.messaging.notAWorker);
  if (workerId === job.posterId) throw forbidden(MSG.applications.cannotMessageSelf);
  if (!callerIsPoster && workerId !== callerId) throw forbidden(MSG.messaging.notAWorker);
  const viewer: Party = callerIsPoster ? 'poster' : 'worker';

  const id = conversationId(job.id, workerId);
  const [existing, application] = await Promise.all([
    readConversation(id),
    callerIsPoster ? db.send(new GetCommand({ TableName: tableName(), Key: keys.application(job.id, workerId), ConsistentRead: true })) : undefined,
  ]);
  if (existing) return { conversation: await viewOf(existing, viewer), created: false };
  // A worker cannot open a conversation about a job hidden by its poster's suspension (a saved link, an open tab).
  if (!callerIsPoster && job.status === 'open' && job.posterSuspended) throw conflict(MSG.jobs.noLongerAvailable);
  const refusal = startRefusal(job, workerId, callerIsPoster, Boolean(application?.Item));
  if (refusal) throw refusal;
  const worker = await getProfile(workerId);
  if (worker?.role !== 'worker') throw forbidden(MSG.messaging.notAWorker);

  const now = new Date().toISOString();
  const item: ConversationItem = {
    ...keys.conversation(job.id, workerId),
    id,
    jobId: job.id,
    jobTitle: job.title,
    posterId: job.posterId,
    workerId,
    initiatedBy: callerId,
    isBlocked: false,
    posterUnread: 0,
    workerUnread: 0,
    createdAt: now,
    updatedAt: now,
  };
  // The job as the decision read it: still open, or still assigned to (or completed by) this worker.
  const jobUnchanged: TransactItem = {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.job(job.id),
      ConditionExpression: `attribute_not_exists(deletingAt) AND #status = :status${job.status === 'open' ? (callerIsPoster ? '' : ' AND attribute_not_exists(posterSuspended)') : ' AND workerId = :worker'}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': job.status, ...(job.status === 'open' ? {} : { ':worker': workerId }) },
    },
  };
  const stillApplied: TransactItem[] = callerIsPoster
    ? [{ ConditionCheck: { TableName: tableName(), Key: keys.application(job.id, workerId), ConditionExpression: 'attribute_exists(pk)' } }]
    : [];
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...item,
            type: 'conversation',
            gsi1pk: keys.conversationsOf(job.posterId),
            gsi1sk: now,
            gsi2pk: keys.conversationsOf(workerId),
            gsi2sk: now,
            gsi3pk: keys.jobReferences(job.id),
            gsi3sk: `CONV#${workerId}`,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      jobUnchanged,
      ...stillApplied,
    ]);
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    // Both parties started it at once: the other request's conversation is the one.
    if (error.failed(0)) {
      const winner = await readConversation(id, true);
      return { conversation: await viewOf(winner!, viewer), created: false };
    }
    // The job moved since it was read (assigned, cancelled, deleted): decide again on the new state.
    throw new LostRace(error);
  }
  const other = callerIsPoster ? worker : await getProfile(job.posterId);
  return { conversation: toView(item, viewer, other, job), created: true };
}

/** The caller's conversations, most recently updated first, with the other party and the job's status. */
export async function listConversations(userId: string): Promise<ConversationView[]> {
  const query = (index: 'GSI1' | 'GSI2') =>
    db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': `${index.toLowerCase()}pk` },
        ExpressionAttributeValues: { ':pk': keys.conversationsOf(userId) },
        ScanIndexForward: false,
        Limit: CONVERSATION_LIST_LIMIT,
      }),
    );
  const pages = await Promise.all([query('GSI1'), query('GSI2')]);
  const conversations = pages
    .flatMap((page) => (page.Items ?? []) as ConversationItem[])
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, CONVERSATION_LIST_LIMIT);
  const viewers = conversations.map((conversation) => partyOf(conversation, userId)!);
  const otherIds = [...new Set(conversations.map((conversation, i) => partyId(conversation, otherParty(viewers[i]!))))];
  const jobIds = [...new Set(conversations.map((conversation) => conversation.jobId))];
  const [profiles, jobs] = await Promise.all([
    batchGet<ProfileItem>(otherIds.map(keys.profile)),
    batchGet<JobItem>(jobIds.map(keys.job)),
  ]);
  const profileById = new Map(profiles.filter(Boolean).map((profile) => [profile!.id, profile!]));
  const jobById = new Map(jobs.filter(Boolean).map((job) => [job!.id, job!]));
  return conversations.map((conversation, i) =>
    toView(conversation, viewers[i]!, profileById.get(partyId(conversation, otherParty(viewers[i]!))), jobById.get(conversation.jobId)),
  );
}

async function queryMessages(conversation: ConversationItem, range: { before?: string; after?: string }, limit: number) {
  const prefix = keys.messagePrefix();
  const condition = range.after
    ? { expression: 'pk = :pk AND sk > :from', values: { ':from': `${prefix}${range.after}` }, forward: true }
    : range.before
      ? { expression: 'pk = :pk AND sk BETWEEN :prefix AND :to', values: { ':prefix': prefix, ':to': `${prefix}${range.before}` }, forward: false }
      : { expression: 'pk = :pk AND begins_with(sk, :prefix)', values: { ':prefix': prefix }, forward: false };
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: condition.expression,
      ExpressionAttributeValues: { ':pk': conversation.pk, ...condition.values },
      ScanIndexForward: condition.forward,
      // One more than asked: whether there are more, and BETWEEN includes `before` itself.
      Limit: limit + 2,
    }),
  );
  const items = (Items as MessageItem[]).filter((item) => item.position !== range.before);
  const page = items.slice(0, limit);
  const hasMore = items.length > limit;
  const messages = (condition.forward ? page : page.reverse()).map((item) => toChatMessage(item, conversation));
  return { messages, hasMore };
}

/** One conversation with its latest messages, oldest first. */
export async function getConversationDetail(userId: string, id: string): Promise<ConversationDetail> {
  const { conversation, party } = await conversationOf(userId, id);
  const [view, { messages, hasMore }] = await Promise.all([viewOf(conversation, party), queryMessages(conversation, {}, MESSAGE_PAGE)]);
  return { conversation: view, messages, olderCursor: hasMore ? (messages[0]?.position ?? null) : null };
}

/**
 * A page of messages, oldest first: those after a position (catching up after a lost
 * connection; `nextCursor` continues forwards) or before one (older history; backwards).
 */
export async function listMessages(userId: string, id: string, range: { before?: string; after?: string }): Promise<Page<ChatMessage>> {
  const { conversation } = await conversationOf(userId, id);
  const { messages, hasMore } = await queryMessages(conversation, range, range.after ? 100 : MESSAGE_PAGE);
  const edge = range.after ? messages.at(-1) : messages[0];
  return { items: messages, nextCursor: hasMore && edge ? edge.position : null };
}

/** Every open connection of a user (all their tabs). */
async function liveConnectionIds(userId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const id of userConnectionIds(userId)) ids.push(id);
  return ids;
}

/** Sends one live message to every open connection of both parties. */
async function pushToParties(conversation: Pick<ConversationItem, 'posterId' | 'workerId'>, message: LiveMessage): Promise<void> {
  const [poster, worker] = await Promise.all([liveConnectionIds(conversation.posterId), liveConnectionIds(conversation.workerId)]);
  await pushToConnections([...poster, ...worker], message);
}

async function messageSentAs(conversation: ConversationItem, senderId: string, messageId: string): Promise<ChatMessage | undefined> {
  const { Item: record } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.clientMessage(conversation.jobId, conversation.workerId, senderId, messageId), ConsistentRead: true }),
  );
  if (!record) return undefined;
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.message(conversation.jobId, conversation.workerId, record.position as string), ConsistentRead: true }),
  );
  return Item ? toChatMessage(Item as MessageItem, conversation) : undefined;
}

/** A time strictly after the conversation's newest message, even if this clock is behind. */
function nextCreatedAt(conversation: ConversationItem): string {
  const now = Date.now();
  const last = conversation.lastMessage ? Date.parse(conversation.lastMessage.createdAt) : 0;
  return new Date(Math.max(now, last + 1)).toISOString();
}

export interface SendResult {
  message: ChatMessage;
  /** False when the id was already sent: the resend changed nothing. */
  created: boolean;
  /** The worker's first message on an open job told the poster (spec 2 §6). */
  questionSent: boolean;
}

/**
 * What a send decides on, in one strongly consistent BatchGetItem (the conversation's last
 * position is a condition): the conversation, its job and the sender's profile. The profile
 * says whether the sender is suspended (this route asks here, not before its reads:
 * OPERATIONS_CHECKING_SUSPENSION) and names them in the notifications a send may make.
 */
async function readForSend(senderId: string, id: string) {
  const parsed = parseConversationId(id);
  const itemKeys = [keys.profile(senderId), ...(parsed ? [keys.conversation(parsed.jobId, parsed.workerId), keys.job(parsed.jobId)] : [])];
  const [sender, conversation, job] = (await batchGet(itemKeys, { consistentRead: true })) as [ProfileItem?, ConversationItem?, JobItem?];
  if (isSuspendedProfile(sender)) throw forbidden(MSG.auth.accountSuspended);
  const party = conversation && partyOf(conversation, senderId);
  if (!conversation || !party) throw notFound(MSG.messaging.conversationNotFound);
  return { conversation, party, job: existingJob(job), sender };
}

/** One attempt of a send, from what was read: throws LostRace when the conversation moved since. */
async function attemptSend(senderId: string, request: SendMessageRequest, read: Awaited<ReturnType<typeof readForSend>>): Promise<SendResult> {
  const { conversation, party, job, sender } = read;
  if (!job) throw notFound(MSG.messaging.conversationNotFound);
  const closed = closedReason(job, conversation);
  if (closed) throw closedRefusal(closed, party);
  if (party === 'worker' && conversation.isBlocked) throw forbidden(MSG.applications.chatBlocked);

  const recipient = otherParty(party);
  const createdAt = nextCreatedAt(conversation);
  const position = messagePosition(createdAt, request.id);
  const message: MessageItem = { id: request.id, conversationId: conversation.id, senderId, content: request.content, createdAt, position };
  const asksQuestion = party === 'worker' && job.status === 'open' && !conversation.questionNotifiedAt;
  const notification = asksQuestion ? workerQuestionNotification(job, sender!, conversation.id) : undefined;
  // Counted with the message, so a send refused for anything else (or a resend) is not.
  const rate = distinctAttemptCount('messages', senderId, request.id);

  const conditions = ['attribute_exists(pk)', conversation.lastPosition ? 'lastPosition = :seen' : 'attribute_not_exists(lastPosition)'];
  if (party === 'worker') conditions.push('isBlocked = :false');
  if (notification) conditions.push('attribute_not_exists(questionNotifiedAt)');
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.clientMessage(conversation.jobId, conversation.workerId, senderId, request.id), type: 'client-message', position },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: tableName(), Item: { ...keys.message(conversation.jobId, conversation.workerId, position), type: 'message', ...message }, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: {
        TableName: tableName(),
        Key: keys.conversation(conversation.jobId, conversation.workerId),
        UpdateExpression: `SET updatedAt = :now, gsi1sk = :now, gsi2sk = :now, lastPosition = :position, lastMessage = :last${notification ? ', questionNotifiedAt = :now' : ''} ADD #unread :one`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#unread': `${recipient}Unread` },
        ExpressionAttributeValues: {
          ':now': createdAt,
          ':position': position,
          ':last': { content: request.content, senderId, createdAt },
          ':one': 1,
          ...(conversation.lastPosition ? { ':seen': conversation.lastPosition } : {}),
          ...(party === 'worker' ? { ':false': false } : {}),
        },
      },
    },
    stillWritable(conversation),
    unreadTotalChange(partyId(conversation, recipient), 1),
    rate.item,
    ...(notification ? notificationWrites(notification) : []),
  ];
  const rateIndex = items.indexOf(rate.item);
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof TransactionRefused && error.failed(0)) {
      const sent = await messageSentAs(conversation, senderId, request.id);
      if (sent) return { message: sent, created: false, questionSent: false };
    }
    if (error instanceof TransactionRefused && error.failed(rateIndex)) throw tooManyRequests(MSG.messaging.tooManyMessages, rate.retryAfterSeconds());
    // Anything else refused means the conversation or job moved since the read: read again.
    if (error instanceof TransactionRefused) throw new LostRace(error);
    throw error;
  }
  return { message: toChatMessage(message, conversation), created: true, questionSent: Boolean(notification) };
}

/**
 * Sends a message: written once, with the conversation's update time, the recipient's unread
 * counters and the sender's count against the message limit, in one transaction. The id is the
 * client's: a resend (a retry over a flaky network) answers with the message already written
 * and changes nothing. The new message is pushed to both parties' connections (the sender's
 * other tabs too).
 */
export async function sendMessage(senderId: string, id: string, request: SendMessageRequest): Promise<SendResult> {
  const firstRead = await readForSend(senderId, id);
  const { conversation } = firstRead;
  let pending: typeof firstRead | undefined = firstRead;
  const result = await retryLostRaces(
    async () => {
      const read = pending ?? (await readForSend(senderId, id));
      pending = undefined;
      return attemptSend(senderId, request, read);
    },
    { attempts: 10, exhaustedMessage: MSG.messaging.sendFailed },
  );
  if (result.created) {
    // The parties' connections are read once the message is written, never before: a tab that
    // (re)connected before this read is pushed the message, one that connects after it finds the
    // message in the catch-up read it makes on opening. Read earlier, a tab reconnecting between
    // that read and the write would get neither.
    const [poster, worker] = await Promise.all([liveConnectionIds(conversation.posterId), liveConnectionIds(conversation.workerId)]);
    await pushToConnections([...poster, ...worker], { type: 'chat.message', conversationId: conversation.id, message: result.message });
    // No connection of the recipient took it live; a worker's question told the poster already.
    const recipient = otherParty(firstRead.party);
    if ((recipient === 'poster' ? poster : worker).length === 0 && !result.questionSent) await tellAwayRecipient(conversation, recipient, firstRead.job, firstRead.sender);
  }
  return result;
}

/**
 * The recipient had no open connection: they hear of the conversation by a new_message
 * notification (and email), once per quiet period (functions/chat/away-messages.ts). Best
 * effort: the message is sent whatever happens here.
 */
async function tellAwayRecipient(conversation: ConversationItem, recipient: Party, job: JobItem | undefined, sender: ProfileItem | undefined): Promise<void> {
  const recipientId = partyId(conversation, recipient);
  try {
    await notifyAwayRecipient({
      jobId: conversation.jobId,
      workerId: conversation.workerId,
      conversationId: conversation.id,
      jobTitle: job?.title ?? '',
      senderName: sender?.name ?? '',
      recipientId,
    });
  } catch (error) {
    logger.warn('could not tell an away recipient of a message', { conversationId: conversation.id, error });
  }
}

/**
 * The reader opened the conversation: their unread count goes to zero and the header total
 * down by as much, in one transaction, and everything so far counts as read.
 */
export async function markConversationRead(userId: string, id: string): Promise<void> {
  const readUpTo = await retryWhileStale(async () => {
    const { conversation, party } = await conversationOf(userId, id, true);
    const unread = conversation[`${party}Unread`] ?? 0;
    const upTo = conversation.lastPosition;
    if (!upTo || (unread === 0 && conversation[`${party}ReadUpTo`] === upTo)) return null;
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.conversation(conversation.jobId, conversation.workerId),
          UpdateExpression: 'SET #unread = :zero, #readUpTo = :upTo',
          ConditionExpression: '#unread = :unread AND lastPosition = :upTo',
          ExpressionAttributeNames: { '#unread': `${party}Unread`, '#readUpTo': `${party}ReadUpTo` },
          ExpressionAttributeValues: { ':zero': 0, ':unread': unread, ':upTo': upTo },
        },
      },
    ];
    if (unread > 0) items.push(unreadTotalChange(userId, -unread));
    await transactWrite(items);
    return { conversation, upTo };
  });
  if (readUpTo) {
    const { conversation, upTo } = readUpTo;
    await pushToParties(conversation, { type: 'chat.read', conversationId: conversation.id, readerId: userId, readUpTo: upTo });
  }
}

/** Moves a user's header total; the same transaction moves a conversation's count by as much. */
function unreadTotalChange(userId: string, by: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.unreadMessages(userId),
      UpdateExpression: 'ADD #count :by',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':by': by },
    },
  };
}

/** The header badge: unread messages over all of the user's conversations. */
export async function unreadTotal(userId: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.unreadMessages(userId) }));
  return Number(Item?.count ?? 0);
}

/** The poster blocks the worker of a conversation, or lets them write again. */
export async function setWorkerBlocked(userId: string, id: string, blocked: boolean): Promise<ConversationView> {
  const { conversation, party } = await conversationOf(userId, id);
  if (party !== 'poster') throw forbidden(MSG.messaging.onlyPosterBlocks);
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.conversation(conversation.jobId, conversation.workerId),
      UpdateExpression: 'SET isBlocked = :blocked, updatedAt = :now, gsi1sk = :now, gsi2sk = :now',
      ConditionExpression: 'posterId = :me',
      ExpressionAttributeValues: { ':blocked': blocked, ':now': new Date().toISOString(), ':me': userId },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await pushToParties(conversation, { type: 'chat.updated', conversationId: conversation.id });
  return viewOf(Attributes as ConversationItem, party);
}

/**
 * Before a conversation is deleted with its job: takes its unread messages off both parties'
 * header totals, in one transaction with zeroing them (so running it again takes nothing more).
 */
export async function settleUnreadBeforeDelete(conversationPk: string): Promise<void> {
  await retryWhileStale(async () => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: { pk: conversationPk, sk: 'CONV' }, ConsistentRead: true }));
    const conversation = Item as ConversationItem | undefined;
    if (!conversation || (!conversation.posterUnread && !conversation.workerUnread)) return;
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: { pk: conversationPk, sk: 'CONV' },
          UpdateExpression: 'SET posterUnread = :zero, workerUnread = :zero',
          ConditionExpression: 'posterUnread = :poster AND workerUnread = :worker',
          ExpressionAttributeValues: { ':zero': 0, ':poster': conversation.posterUnread, ':worker': conversation.workerUnread },
        },
      },
      ...(conversation.posterUnread ? [unreadTotalChange(conversation.posterId, -conversation.posterUnread)] : []),
      ...(conversation.workerUnread ? [unreadTotalChange(conversation.workerId, -conversation.workerUnread)] : []),
    ]);
  });
}
