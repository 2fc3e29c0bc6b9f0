/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it receives, parsed with
 * `mailparser`, so tests read mails the way a user would and follow the links in them. With `user`/`pass` it
 * demands AUTH (plain text on loopback), so the client's credentials in the URL are tested too.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port.js';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** Every http(s) URL in the text. */
  readonly links: string[];
}

export interface SmtpSink {
  /** smtp://user:pass@127.0.0.1:port, for [smtp] url. */
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** Resolves the first mail (received before or within timeoutMs) matching the predicate. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

export async function startSmtpSink(user = 'outpoint', pass = 'mail-secret'): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const text = parsed.text ?? '';
          mails.push({
            from: parsed.from?.text ?? '',
            to: Array.isArray(parsed.to) ? parsed.to.map((t) => t.text).join(', ') : (parsed.to?.text ?? ''),
            subject: parsed.subject ?? '',
            text,
            links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    mails,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching mail within ${timeoutMs} ms (received: ${mails.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'})`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
