import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { env } from './env.js';

let client: SESv2Client | undefined;
const ses = () => (client ??= new SESv2Client({}));

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post). */
  headers: ReadonlyArray<{ name: string; value: string }>;
}

/** Sends one email from the deploy's sender identity (SES v2 SendEmail, a simple message with both bodies). */
export async function sendEmail(email: OutgoingEmail): Promise<string | undefined> {
  const charset = 'UTF-8';
  const { MessageId } = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: env('mailFromAddress'),
      // Its event destination reports bounces and complaints (TOPIC_CONSUMERS.sesFeedback).
      ConfigurationSetName: env('mailConfigurationSet'),
      Destination: { ToAddresses: [email.to] },
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: charset },
          Body: { Text: { Data: email.text, Charset: charset }, Html: { Data: email.html, Charset: charset } },
          Headers: email.headers.map(({ name, value }) => ({ Name: name, Value: value })),
        },
      },
    }),
  );
  return MessageId;
}
