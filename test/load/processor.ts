/**
 * The steps of test/load/scenario.yml, run by Artillery in its worker threads (bundled by
 * Artillery's esbuild). Each request a step makes is timed as the histogram `step.<name>` (and in `requests`) and
 * counted by answer as `step.<name>.codes.<status>` (or `.errors.<code>` when no answer came);
 * a refused request is counted, never thrown, so one 4xx does not end a virtual user's session.
 * The settings and the users come from run.ts (LOAD_COORDINATOR), made before the run.
 */
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import type { ApplicationsOfJob, JobCardSummary, JobPaymentStart, JobSummary, LiveMessage, Page, WorkerApplication } from '../../shared/api.js';
import type { Claimed, ChatSeat, LoadSettings, LoadUser, SentMessage, SocketRecord } from './protocol.js';
import { CHAT_GRACE_MS, COORDINATOR } from './protocol.js';
import { jobRequest, testCardConfirmation } from './requests.js';

interface VirtualUser {
  vars: Record<string, unknown>;
  scenario: { name: string };
  ws?: WebSocket;
}

interface Session {
  user: LoadUser;
  idToken: string;
  /** Job ids of the last browse. */
  seen: string[];
  /** The poster's job of this round. */
  postedJobId?: string;
  applied: Set<string>;
  chat?: { seat: ChatSeat; record: SocketRecord };
}

const coordinator = process.env.LOAD_COORDINATOR ?? '';
const SEARCH_WORDS = ['garden', 'moving', 'paint', 'furniture', 'cleaning'];
/** How long a poster waits for an applicant, then for the work to be completed, in one round. */
const WAIT_FOR_APPLICANT_MS = 15_000;
const WAIT_FOR_COMPLETION_MS = 20_000;
const POLL_MS = 1_000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

async function coordinatorCall<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${coordinator}${path}`, { method: body === undefined ? 'GET' : 'POST', body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`coordinator ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

let settingsPromise: Promise<LoadSettings> | undefined;
const settings = () => (settingsPromise ??= coordinatorCall<LoadSettings>(COORDINATOR.settings));

const session = (vu: VirtualUser) => vu.vars.session as Session;

/** One timed request: the histogram, the answer's code, and the parsed body (undefined when none came). */
async function timed<T>(events: EventEmitter, step: string, url: string, init: RequestInit): Promise<{ status: number; body: T | undefined }> {
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    const elapsed = performance.now() - started;
    events.emit('histogram', `step.${step}`, elapsed);
    events.emit('histogram', 'requests', elapsed);
    events.emit('counter', `step.${step}.codes.${response.status}`, 1);
    let body: T | undefined;
    try {
      body = text ? (JSON.parse(text) as T) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    events.emit('counter', `step.${step}.errors.${code}`, 1);
    return { status: 0, body: undefined };
  }
}

async function api<T>(vu: VirtualUser, events: EventEmitter, step: string, method: string, path: string, body?: unknown) {
  const { apiUrl } = await settings();
  return timed<T>(events, step, `${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${session(vu).idToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Cognito's InitiateAuth, as the web app's sign-in sends it (the flow run.ts chose). */
async function signInAs(user: LoadUser, events: EventEmitter): Promise<string> {
  const { cognitoUrl, clientId, authFlow } = await settings();
  const answer = await timed<{ AuthenticationResult?: { IdToken?: string } }>(events, 'sign_in', cognitoUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ AuthFlow: authFlow, ClientId: clientId, AuthParameters: { USERNAME: user.email, PASSWORD: user.password } }),
  });
  const token = answer.body?.AuthenticationResult?.IdToken;
  if (!token) throw new Error(`sign-in refused: ${answer.status}`);
  return token;
}

export async function signIn(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const role = vu.scenario.name === 'poster' ? 'poster' : 'worker';
  const claimed = await coordinatorCall<Claimed>(COORDINATOR.claim, { role });
  vu.vars.session = { user: claimed.user, idToken: await signInAs(claimed.user, events), seen: [], applied: new Set() } satisfies Session;
}

export function beforeEnd(_vu: VirtualUser, next: (goOn: boolean) => void): void {
  void settings().then(({ endsAt }) => next(Date.now() < endsAt));
}

export async function browse(vu: VirtualUser, events: EventEmitter): Promise<void> {
  events.emit('counter', `scenario.${vu.scenario.name}.rounds`, 1);
  const page = await api<Page<JobCardSummary>>(vu, events, 'browse', 'GET', '/feed/jobs?limit=20');
  session(vu).seen = page.body?.items?.map((job) => job.id) ?? [];
}

export async function search(vu: VirtualUser, events: EventEmitter): Promise<void> {
  await api(vu, events, 'search', 'GET', `/jobs?q=${pick(SEARCH_WORDS)}`);
}

export async function openJob(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const jobId = pick(session(vu).seen);
  if (jobId) await api(vu, events, 'open_job', 'GET', `/jobs/${jobId}`);
}

export async function saveJob(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const jobId = pick(session(vu).seen);
  if (jobId) await api(vu, events, 'save_job', 'PUT', `/me/saved-jobs/${jobId}`);
}

/** Posts a job and pays with the test card as the web app does: create, confirm the card with the publishable key, confirm to the API. */
export async function postAndPay(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const current = session(vu);
  current.postedJobId = undefined;
  const word = pick(SEARCH_WORDS)!;
  const started = await api<JobPaymentStart>(vu, events, 'post_job', 'POST', '/jobs', jobRequest(`Load test ${word} job`, `A ${word} job posted by npm run load.`));
  if (started.status !== 201 || !started.body) return;
  const { stripeApiUrl, stripePublishableKey } = await settings();
  const confirmation = testCardConfirmation(stripeApiUrl, stripePublishableKey, started.body.payment);
  const card = await timed<{ status?: string }>(events, 'card_confirm', confirmation.url, confirmation.init);
  if (card.body?.status !== 'succeeded') return;
  const confirmed = await api(vu, events, 'payment_confirm', 'POST', '/payments/confirm', { paymentIntentId: started.body.payment.paymentIntentId });
  if (confirmed.status === 200) current.postedJobId = started.body.job.id;
}

/** Polls the round's job for an applicant and accepts the first pending one. */
export async function acceptApplicant(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const current = session(vu);
  const jobId = current.postedJobId;
  if (!jobId) return;
  const deadline = Math.min(Date.now() + WAIT_FOR_APPLICANT_MS, (await settings()).endsAt);
  while (Date.now() < deadline) {
    const listed = await api<ApplicationsOfJob>(vu, events, 'applicants', 'GET', `/jobs/${jobId}/applications`);
    const pending = listed.body?.items?.find((item) => item.application.status === 'pending');
    if (pending) {
      const accepted = await api(vu, events, 'accept', 'POST', `/jobs/${jobId}/applications/${pending.application.workerId}/accept`);
      if (accepted.status !== 200) current.postedJobId = undefined;
      return;
    }
    await wait(POLL_MS);
  }
  current.postedJobId = undefined;
}

/** Polls the accepted job until the worker marks it complete, then releases the payment. */
export async function releaseWhenCompleted(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const jobId = session(vu).postedJobId;
  if (!jobId) return;
  const deadline = Math.min(Date.now() + WAIT_FOR_COMPLETION_MS, (await settings()).endsAt);
  while (Date.now() < deadline) {
    const job = await api<JobSummary>(vu, events, 'job_status', 'GET', `/jobs/${jobId}`);
    if (job.body?.status === 'completed') {
      await api(vu, events, 'release', 'POST', `/jobs/${jobId}/release-payment`);
      return;
    }
    await wait(POLL_MS);
  }
}

/** Applies to up to two of the jobs just browsed that this worker has not applied to yet. */
export async function applyToJobs(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const current = session(vu);
  for (const jobId of current.seen.filter((id) => !current.applied.has(id)).slice(0, 2)) {
    current.applied.add(jobId);
    await api(vu, events, 'apply', 'POST', `/jobs/${jobId}/applications`, {});
  }
}

export async function completeAssignedJobs(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const mine = await api<{ items: WorkerApplication[] }>(vu, events, 'my_applications', 'GET', '/me/applications');
  for (const { application, job } of mine.body?.items ?? []) {
    if (application.status === 'accepted' && job.status === 'assigned') await api(vu, events, 'complete', 'POST', `/jobs/${job.id}/complete`);
  }
}

/** The chat virtual user's connect step: claims a seat, signs in and opens the socket as the web app does (the ID token in the query). */
export function openChatSocket(wsArgs: { target: string }, vu: VirtualUser, done: (error?: Error) => void): void {
  void (async () => {
    const claimed = await coordinatorCall<Claimed>(COORDINATOR.claim, { role: 'chat' });
    if (claimed.role !== 'chat') throw new Error('the coordinator gave no chat seat');
    const events = { emit: () => false } as unknown as EventEmitter;
    const idToken = await signInAs(claimed.user, events);
    const record: SocketRecord = { userId: claimed.user.userId, conversationId: claimed.user.conversationId, openedAt: 0, closedAt: 0, received: {}, sent: [] };
    vu.vars.session = { user: claimed.user, idToken, seen: [], applied: new Set(), chat: { seat: claimed.user, record } } satisfies Session;
    wsArgs.target = `${(await settings()).webSocketUrl}?token=${encodeURIComponent(idToken)}`;
  })().then(() => done(), done);
}

/** Records every chat push of the seat's conversation; the socket is open once this step runs. */
export async function listenForChat(vu: VirtualUser, events: EventEmitter): Promise<void> {
  const { record } = session(vu).chat!;
  record.openedAt = Date.now();
  vu.ws!.on('message', (data: Buffer) => {
    const live = JSON.parse(String(data)) as LiveMessage;
    if (live.type !== 'chat.message' || live.conversationId !== record.conversationId) return;
    record.received[live.message.id] = (record.received[live.message.id] ?? 0) + 1;
    if (live.message.senderId !== record.userId) {
      events.emit('counter', 'chat.pushes_received', 1);
      events.emit('histogram', 'chat.delivery', Date.now() - Date.parse(live.message.createdAt));
    }
  });
  vu.ws!.on('close', () => {
    record.closedAt ||= Date.now();
  });
}

export async function sendChatMessage(vu: VirtualUser, events: EventEmitter): Promise<void> {
  events.emit('counter', 'scenario.chat.rounds', 1);
  const { record } = session(vu).chat!;
  const id = randomUUID();
  const startedAt = Date.now();
  const sent = await api(vu, events, 'chat_send', 'POST', `/conversations/${record.conversationId}/messages`, { id, content: `load message ${id.slice(0, 8)}` });
  record.sent.push({ id, conversationId: record.conversationId, senderId: record.userId, status: sent.status, startedAt } satisfies SentMessage);
}

/** Keeps the socket open a little for the last pushes, then hands the record to run.ts. */
export async function finishChat(vu: VirtualUser): Promise<void> {
  const { record } = session(vu).chat!;
  await wait(CHAT_GRACE_MS);
  record.closedAt ||= Date.now();
  await coordinatorCall(COORDINATOR.socket, record);
}
