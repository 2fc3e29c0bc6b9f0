/** Outgoing mail (verification and password-reset links); the SMTP driver lives in src/mail/. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  /** Plain text: links stay copyable and nothing renders remote content. */
  readonly text: string;
}

export interface Mailer {
  /** Resolves once the server accepted the message; rejects with the server's reason otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
