import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { guarded, listen, readBody, sendJson, type Listening } from './http-util.js';
import type { SesFeedbackEvent } from '../../functions/notifications/email-suppressions.js';
import type { Mail } from './mailbox.js';

/** What SES v2's SendEmail takes of a simple message (the only kind our mailer sends). */
interface SendEmailInput {
  FromEmailAddress?: string;
  ConfigurationSetName?: string;
  Destination?: { ToAddresses?: string[] };
  Content?: {
    Simple?: {
      Subject?: { Data?: string };
      Body?: { Text?: { Data?: string }; Html?: { Data?: string } };
      Headers?: Array<{ Name?: string; Value?: string }>;
    };
  };
}

export interface LocalSesOptions {
  port: number;
  /** The one verified sender identity: SES refuses any other From address. */
  identity: string;
  /** Where each sent email is delivered (the local mailbox). */
  deliver(mail: Omit<Mail, 'id' | 'sentAt'>): void;
  /** The one configuration set, whose event destination receives the bounce and complaint events. */
  configurationSet: string;
  /** The configuration set's event destination (the SNS topic): one SES event, as SES publishes it. */
  publishFeedback(event: SesFeedbackEvent): Promise<void>;
}

/**
 * SES's mailbox simulator: mail to these addresses (with any `+label`) bounces permanently or
 * is delivered and then reported as spam, and the configuration set publishes the event.
 */
const SIMULATOR = /^(bounce|complaint)(\+[^@]*)?@simulator\.amazonses\.com$/i;

/** The bounce or complaint event SES publishes for a simulator address, or null for any other address. */
export function simulatedFeedback(address: string, messageId: string, now: Date): (SesFeedbackEvent & { mail: { messageId: string; destination: string[] } }) | null {
  const kind = SIMULATOR.exec(address)?.[1]?.toLowerCase();
  const mail = { messageId, destination: [address] };
  const timestamp = now.toISOString();
  if (kind === 'bounce') return { eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', timestamp, bouncedRecipients: [{ emailAddress: address }] } };
  if (kind === 'complaint') return { eventType: 'Complaint', mail, complaint: { timestamp, complainedRecipients: [{ emailAddress: address }] } };
  return null;
}

/**
 * Amazon SES v2's SendEmail (REST, `POST /v2/email/outbound-emails`) for the local stack: what
 * `@aws-sdk/client-sesv2` sends, checked as SES checks it (a verified sender, a recipient, a
 * subject and a body), and delivered, HTML, text and headers, into the local mailbox; the
 * mailbox simulator's addresses bounce or complain through the configuration set. Stands
 * behind the policy proxy like every emulator, so `ses:SendEmail` needs the `mail:send` capability.
 */
export async function serveLocalSes(options: LocalSesOptions): Promise<Listening> {
  const rejected = (res: Parameters<typeof sendJson>[0], type: string, message: string) => sendJson(res, 400, { message }, { 'x-amzn-errortype': type });
  const server = createServer(
    guarded('ses', async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method !== 'POST' || url.pathname !== '/v2/email/outbound-emails') return sendJson(res, 404, { message: `${req.method} ${url.pathname} is not emulated` }, { 'x-amzn-errortype': 'NotFoundException' });
      const input = JSON.parse((await readBody(req)).toString('utf8') || '{}') as SendEmailInput;
      const simple = input.Content?.Simple;
      const to = input.Destination?.ToAddresses ?? [];
      if (input.FromEmailAddress !== options.identity) return rejected(res, 'MessageRejected', `Email address is not verified. The following identities failed the check: ${input.FromEmailAddress ?? ''}`);
      if (input.ConfigurationSetName !== undefined && input.ConfigurationSetName !== options.configurationSet) {
        return sendJson(res, 404, { message: `Configuration set <${input.ConfigurationSetName}> does not exist.` }, { 'x-amzn-errortype': 'NotFoundException' });
      }
      if (to.length === 0) return rejected(res, 'BadRequestException', 'Missing final destination');
      if (!simple?.Subject?.Data || !(simple.Body?.Text?.Data || simple.Body?.Html?.Data)) return rejected(res, 'BadRequestException', 'A simple message needs a subject and a body');
      const headers = Object.fromEntries((simple.Headers ?? []).map((header) => [header.Name ?? '', header.Value ?? '']));
      const messageId = randomUUID();
      for (const address of to) {
        const feedback = simulatedFeedback(address, messageId, new Date());
        if (feedback?.eventType !== 'Bounce') {
          options.deliver({ to: address, from: input.FromEmailAddress, subject: simple.Subject.Data, text: simple.Body?.Text?.Data ?? '', html: simple.Body?.Html?.Data, headers });
        }
        // SES publishes feedback later and on its own; here before answering, so that once the
        // mailer's queue is idle its feedback has been handled too. Only with the configuration set.
        if (feedback && input.ConfigurationSetName) {
          await options.publishFeedback(feedback).catch((error: unknown) => console.error('[ses] publishing feedback failed', error));
        }
      }
      sendJson(res, 200, { MessageId: messageId });
    }),
  );
  return listen(server, options.port);
}
