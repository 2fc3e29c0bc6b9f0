/**
 * The optional second factor (TOTP): set up by scanning a QR code (or typing the secret) and entering one code,
 * which turns it on and shows ten recovery codes once. Starting the set-up needs the password; new recovery codes
 * and turning it off need the password and a current code (the security page's forms post to /security/2fa/…,
 * registered with the page's other changes; this file draws the card and the pages those posts answer with).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import type { Enrolment } from '../../../services/dashboard/totp-service.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { qrCode } from '../../shell/qr-code.js';
import { csrfField, field, notice } from '../forms.js';
import { formField, requireUser, type DashboardContext, type SignedIn } from '../dashboard-context.js';
import { sendPage } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';

export const TOTP = `${DASHBOARD_PATH}/security/2fa`;

const password = (form: string): SafeHtml => field(form, { label: 'Current password', name: 'current', type: 'password', autocomplete: 'current-password' });
const code = (form: string): SafeHtml =>
  field(form, { label: 'Code from your app, or a recovery code', name: 'code', autocomplete: 'one-time-code', inputmode: 'text', maxlength: 19 });

/** The security page's second-factor card. */
export async function secondFactorSection(ctx: DashboardContext, user: SignedIn, error?: FormError): Promise<SafeHtml> {
  if (!user.account.totpEnabled) {
    return html`<section class="card" aria-labelledby="totp-h"><h2 id="totp-h">Second factor</h2>
${error && notice('bad', error.message)}
<p><span class="badge neutral">off</span> With a second factor, signing in also needs a code from an authenticator app on your phone.</p>
<form method="post" action="${TOTP}/start" class="stack">${csrfField(user.csrf)}
${password('totp-on')}
<button type="submit">Set up a second factor</button></form></section>`;
  }
  const left = await ctx.d.totp.unusedRecoveryCodes(user.account.id);
  return html`<section class="card" aria-labelledby="totp-h"><h2 id="totp-h">Second factor</h2>
${error && notice('bad', error.message)}
<p><span class="badge ok">on</span> Signing in asks for a code from your authenticator app. ${left} unused recovery code${left === 1 ? '' : 's'} left.</p>
<details><summary>Make new recovery codes</summary>
<form method="post" action="${TOTP}/recovery-codes" class="stack">${csrfField(user.csrf)}
${password('totp-codes')}
${code('totp-codes')}
<button type="submit" class="secondary">Make new recovery codes</button></form></details>
<form method="post" action="${TOTP}/disable" class="stack">${csrfField(user.csrf)}
${password('totp-off')}
${code('totp-off')}
<button type="submit" class="danger">Turn the second factor off</button></form></section>`;
}

/** Step two of the set-up: scan, then confirm with one code. */
export function enrolPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, user: SignedIn, enrolment: Enrolment, error?: FormError): Promise<FastifyReply> {
  const body = html`<h1>Set up a second factor</h1>
${error && notice('bad', error.message)}
<ol class="steps">
<li><p>Open an authenticator app (for example FreeOTP, Aegis, Google Authenticator or 1Password) and scan this code:</p>
${qrCode(enrolment.uri, 'QR code for your authenticator app')}
<p>Or type this key into the app: <code id="totp-secret">${enrolment.secret}</code></p></li>
<li><form method="post" action="${TOTP}/confirm" class="stack narrow">${csrfField(user.csrf)}
${field('totp', { label: 'The 6-digit code the app shows', name: 'code', autocomplete: 'one-time-code', inputmode: 'numeric', maxlength: 6, pattern: '[0-9]{6}' })}
<button type="submit">Turn on</button></form></li>
</ol>`;
  return sendPage(ctx, request, reply, { title: 'Set up a second factor', body, user, section: 'security', status: error?.status ?? 200 });
}

/** Recovery codes, shown this once. */
export function codesPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, user: SignedIn, codes: readonly string[], first: boolean): Promise<FastifyReply> {
  const body = html`<h1>${first ? 'The second factor is on' : 'New recovery codes'}</h1>
${notice('warn', html`Store these recovery codes somewhere safe now: <strong>they are shown only this once</strong>. Each one signs you in once if you lose your phone.${first ? '' : ' Your earlier codes no longer work.'}`)}
<div class="copy-line"><pre><code id="recovery-codes">${codes.join('\n')}</code></pre><button type="button" class="secondary" data-copy="recovery-codes" hidden>Copy</button></div>
<p><a class="button" href="${DASHBOARD_PATH}/security">Done</a></p>`;
  return sendPage(ctx, request, reply, { title: first ? 'Second factor on' : 'New recovery codes', body, user, section: 'security' });
}

/** The set-up's confirmation (the start, new codes and turning off are the security page's changes). */
export function secondFactorPages(app: FastifyInstance, ctx: DashboardContext): void {
  app.post(`${TOTP}/confirm`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => codesPage(ctx, request, reply, user, await ctx.d.totp.confirm(user.account, formField(request, 'code')), true),
      async (error) => {
        const enrolment = await ctx.d.totp.pending(user.account);
        return enrolment ? enrolPage(ctx, request, reply, user, enrolment, error) : reply.redirect(`${DASHBOARD_PATH}/security`, 303);
      },
    );
    return reply;
  });
}
