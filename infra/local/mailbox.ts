import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { escapeHtml } from '../../shared/html.js';
import { listen, type Listening } from './http-util.js';

export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML body, when the sender gave one (the mailer's emails through local SES). */
  html?: string;
  /** The sender's address and extra headers (List-Unsubscribe...), for emails sent through local SES. */
  from?: string;
  headers?: Record<string, string>;
  /** The verification or reset code the mail carries, for tests and the page's highlight. */
  code?: string;
  sentAt: string;
}

/**
 * Every email the local stack sends lands here: the user pool's (verification, resend, password
 * reset) and the mailer's through local SES (infra/local/ses.ts). Printed to the console, kept
 * in a file, and readable newest first at a local URL (HTML for people, each email rendered as
 * it was sent; /messages.json?to=<email> for tests).
 */
export class Mailbox {
  private readonly mails: Mail[];

  constructor(
    private readonly file?: string,
    private readonly print = false,
  ) {
    this.mails = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Mail[]) : [];
  }

  deliver(mail: Omit<Mail, 'id' | 'sentAt'>): Mail {
    const stored = { ...mail, to: mail.to.trim().toLowerCase(), id: randomUUID(), sentAt: new Date().toISOString() };
    this.mails.unshift(stored);
    if (this.file) writeFileSync(this.file, JSON.stringify(this.mails, null, 2));
    if (this.print) console.log(`\n📧  Mail to ${mail.to}: ${mail.subject}${mail.code ? ` — code ${mail.code}` : ''}`);
    return stored;
  }

  /** Newest first, optionally only those sent to one address. */
  list(to?: string): Mail[] {
    const address = to?.trim().toLowerCase();
    return address ? this.mails.filter((mail) => mail.to === address) : [...this.mails];
  }

  async serve(port: number): Promise<Listening> {
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/messages.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(JSON.stringify(this.list(url.searchParams.get('to') ?? undefined)));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(renderMailboxPage(this.list()));
    });
    return listen(server, port);
  }
}

/**
 * The newest verification code the local mailbox holds for the address (its /messages.json, as a
 * test or a script reads it), or undefined while none has come: the mail goes out beside the
 * sign-up's answer and may land a moment after it, so callers poll.
 */
export async function mailedCode(mailboxUrl: string, email: string): Promise<string | undefined> {
  const mails = (await (await fetch(`${mailboxUrl}/messages.json?to=${encodeURIComponent(email)}`)).json()) as Array<Pick<Mail, 'code'>>;
  return mails[0]?.code;
}

/** An email's HTML body in a sandboxed frame (no scripts, links open outside), its text beneath. */
function renderBodies(mail: Mail): string {
  const text = `<pre>${escapeHtml(mail.text)}</pre>`;
  if (!mail.html) return text;
  const headers = Object.entries(mail.headers ?? {})
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return `<iframe title="${escapeHtml(`HTML of: ${mail.subject}`)}" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(mail.html.replace('<head>', '<head><base target="_blank">'))}"></iframe>
  <details><summary>Plain text</summary>${text}</details>
  ${headers ? `<details><summary>Headers</summary><dl>${headers}</dl></details>` : ''}`;
}

function renderMailboxPage(mails: Mail[]): string {
  const items = mails
    .map(
      (mail) => `<li><article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(mail.to)}</strong>${mail.from ? ` from ${escapeHtml(mail.from)}` : ''} · <time datetime="${mail.sentAt}">${new Date(mail.sentAt).toLocaleString()}</time></p>
  ${mail.code ? `<p class="code">Code: <strong>${escapeHtml(mail.code)}</strong></p>` : ''}
  ${renderBodies(mail)}
</article></li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local mailbox</title><meta http-equiv="refresh" content="5">
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
ul{list-style:none;padding:0}li{border:1px solid #e5e7eb;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
h2{margin:0 0 .25rem;font-size:1.1rem}.meta{color:#4b5563;margin:0 0 .5rem}.code{font-size:1.4rem}.code strong{letter-spacing:.2em}
pre{white-space:pre-wrap;font-family:inherit}iframe{width:100%;height:22rem;border:1px solid #e5e7eb;border-radius:.25rem}
dt{font-weight:600}dd{margin:0 0 .25rem;word-break:break-all}</style></head>
<body><main><h1>Local mailbox</h1><p>Emails the local stack sent (the user pool's codes, the mailer's notifications), newest first. This page refreshes every 5 seconds.</p>
${mails.length ? `<ul>${items}</ul>` : '<p>No emails yet. Sign up to receive a verification code.</p>'}
</main></body></html>`;
}
