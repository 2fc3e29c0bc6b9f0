/**
 * Mailer over SMTP with nodemailer: `[smtp] url` (smtp://user:pass@host:587 upgrades with STARTTLS when offered,
 * smtps:// is TLS from the start). nodemailer's own logging stays off: messages carry one-time links.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../core/infrastructure/mailer.js';

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(url: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(url, { from });
    this.transport.set('logger', false);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
