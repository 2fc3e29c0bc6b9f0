import { html, type SafeHtml } from '../shell/html.js';

export interface ApiLink {
  readonly label: string;
  /** Path on this server, e.g. /api/v2/tx/LTC/…. */
  readonly path: string;
  /** v3: the request needs an API-KEY header. */
  readonly needsKey?: boolean;
}

/** A URL in single quotes for a POSIX shell: our paths are percent-encoded, only ' itself needs care. */
function shellQuoted(url: string): string {
  return `'${url.replaceAll("'", '%27')}'`;
}

/** A GET of `url` for a shell; with the API-KEY header read from $OUTPOINT_API_KEY when the request needs a key. */
export function curlCommand(url: string, needsKey: boolean, options = ''): string {
  return `curl -s ${needsKey ? '-H "API-KEY: $OUTPOINT_API_KEY" ' : ''}${options}${shellQuoted(url)}`;
}

/** The JSON a page is built from, each with a copyable curl line (v3 lines read the key from $OUTPOINT_API_KEY). */
export function apiLinks(publicUrl: string, links: readonly ApiLink[]): SafeHtml {
  return html`<section class="api-links" aria-labelledby="api-links-title">
<h2 id="api-links-title">The data behind this page</h2>
${links.map((l, i) => {
  const curl = curlCommand(publicUrl + l.path, l.needsKey === true);
  return html`<p><a href="${l.path}">${l.label}</a>${l.needsKey ? html` <span class="muted">(needs an API key)</span>` : ''}</p>
<div class="copy-line"><pre id="curl-${i}">${curl}</pre><button type="button" class="secondary" data-copy="curl-${i}" hidden>Copy</button></div>`;
})}
</section>`;
}
