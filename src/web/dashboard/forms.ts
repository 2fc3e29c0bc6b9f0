/** Form pieces every dashboard page uses: labelled fields, the CSRF field, one-button forms, notices. */
import { html, type SafeHtml } from '../shell/html.js';

export interface FieldSpec {
  readonly label: string;
  readonly name: string;
  readonly type?: 'text' | 'email' | 'password' | 'number';
  readonly value?: string;
  readonly autocomplete?: string;
  readonly required?: boolean;
  readonly hint?: string;
  readonly inputmode?: 'numeric' | 'text';
  /** Extra attributes for numbers and codes. */
  readonly min?: number;
  readonly maxlength?: number;
  readonly pattern?: string;
}

/** A label, its input and an optional hint linked by aria-describedby; ids derive from the form and field names. */
export function field(form: string, f: FieldSpec): SafeHtml {
  const id = `${form}-${f.name}`;
  const hintId = `${id}-hint`;
  return html`<div class="field">
<label for="${id}">${f.label}</label>
<input id="${id}" name="${f.name}" type="${f.type ?? 'text'}"${f.value !== undefined && html` value="${f.value}"`}${f.autocomplete !== undefined && html` autocomplete="${f.autocomplete}"`}${f.required !== false && html` required`}${f.inputmode !== undefined && html` inputmode="${f.inputmode}"`}${f.min !== undefined && html` min="${f.min}"`}${f.maxlength !== undefined && html` maxlength="${f.maxlength}"`}${f.pattern !== undefined && html` pattern="${f.pattern}"`}${f.hint !== undefined && html` aria-describedby="${hintId}"`}>
${f.hint !== undefined && html`<p class="hint" id="${hintId}">${f.hint}</p>`}
</div>`;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

/** A form that is one button (sign out, revoke, rotate…); `danger` styles it as destructive. */
export function actionButton(action: string, label: string, csrf: string, options: { danger?: boolean; secondary?: boolean; hidden?: Readonly<Record<string, string>> } = {}): SafeHtml {
  const kind = options.danger ? 'danger' : options.secondary ? 'secondary' : '';
  return html`<form class="inline-form" method="post" action="${action}">${csrfField(csrf)}${Object.entries(options.hidden ?? {}).map(([n, v]) => html`<input type="hidden" name="${n}" value="${v}">`)}<button type="submit"${kind && html` class="${kind}"`}>${label}</button></form>`;
}

export type NoticeKind = 'ok' | 'warn' | 'bad';

/** A message above a form: errors are alerts (read out at once), others polite status messages. */
export function notice(kind: NoticeKind, message: string | SafeHtml): SafeHtml {
  return html`<div class="banner ${kind}" role="${kind === 'bad' ? 'alert' : 'status'}">${message}</div>`;
}

export function noticeIf(message: { kind: NoticeKind; text: string } | null): SafeHtml | null {
  return message ? notice(message.kind, message.text) : null;
}
