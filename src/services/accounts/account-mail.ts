/**
 * The dashboard's mail: verification links, reset links, and a notice to the old address when the email changes.
 * Sending never blocks or fails the request that caused it (a page must not answer slower for a known address
 * than for an unknown one); a failure is logged without the message, which holds the link.
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { Mailer, MailMessage } from '../../core/infrastructure/mailer.js';
import type { DashboardLinks } from './dashboard-links.js';

export const VERIFY_HOURS = 48;
export const RESET_MINUTES = 60;

export class AccountMail {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly links: DashboardLinks,
    private readonly logger: Logger,
  ) {}

  verification(to: string, token: string): void {
    this.send('verification', {
      to,
      subject: 'Confirm your email address',
      text: `Open this link to confirm ${to} for your Outpoint account:\n\n${this.links.verify(token)}\n\n` +
        `The link works once, for ${VERIFY_HOURS} hours. If you did not sign up, ignore this message.\n`,
    });
  }

  reset(to: string, token: string): void {
    this.send('password reset', {
      to,
      subject: 'Reset your password',
      text: `Someone (we hope you) asked to reset the password of the Outpoint account ${to}. To choose a new one, open:\n\n` +
        `${this.links.reset(token)}\n\nThe link works once, for ${RESET_MINUTES} minutes. If you did not ask, ignore this message: your password stays as it is.\n`,
    });
  }

  emailChanged(oldAddress: string, newAddress: string): void {
    this.send('email change notice', {
      to: oldAddress,
      subject: 'Your account email was changed',
      text: `The email address of your Outpoint account was changed from ${oldAddress} to ${newAddress}.\n` +
        `If you did not do this, reset your password and tell the operator of ${this.links.signIn()}.\n`,
    });
  }

  /** Waits for mail still being handed to the server (tests; shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  close(): Promise<void> {
    return this.settled().then(() => this.mailer.close());
  }

  private send(kind: string, message: MailMessage): void {
    const sending = this.mailer.send(message).then(
      () => undefined,
      (error: unknown) => this.logger.warn('account mail not sent', { kind, error: (error as Error).message }),
    );
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }
}
