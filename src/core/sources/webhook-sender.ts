/** Makes one webhook HTTP call (the driver in src/webhooks-http/); the delivery state machine lives in services/webhooks. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type WebhookResponse =
  | { readonly ok: true; readonly status: number }
  /** `status` when the receiver answered (not 2xx), else null (refused target, DNS, timeout, connection). */
  | { readonly ok: false; readonly status: number | null; readonly error: string };

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
  /** Null when the URL may be called now; else why not (a private address, a bad scheme): checked at registration too. */
  checkTarget(url: string): Promise<string | null>;
  close(): void;
}
