/**
 * `/docs`: the API reference for people, rendered on the server from the OpenAPI documents the server publishes
 * (`/api/v2/openapi.json`, `/api/v3/openapi.json`), so it lists exactly the routes that exist, with the schemas they
 * answer with. Grouped by version, then by tag; no client framework and nothing from elsewhere (the copy buttons are
 * the explorer's own script).
 */
import type { OpenApiDocument, PublishedDocument } from '../../core/infrastructure/api-documents.js';
import { DASHBOARD_PATH } from '../../services/accounts/dashboard-links.js';
import { html, type SafeHtml } from '../shell/html.js';
import { operationView, type OperationEntry } from './operation-view.js';

interface TagGroup {
  readonly tag: string;
  readonly entries: OperationEntry[];
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The path without its optional last segment, when `path` extends `shorter` by exactly that one parameter. */
const foldsInto = (shorter: string, path: string): boolean => path.startsWith(`${shorter}/{`) && !path.slice(shorter.length + 1).includes('/');

/** Operations by tag (tags in order of first use); a path that only drops the previous one's optional last segment folds into it. */
function groups(version: string, document: OpenApiDocument): TagGroup[] {
  const byTag = new Map<string, OperationEntry[]>();
  const needsKeyByDefault = (document.security ?? []).length > 0;
  let last: { list: OperationEntry[]; entry: OperationEntry } | null = null;
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (last && last.entry.method === method && last.entry.operation.summary === operation.summary && foldsInto(path, last.entry.path)) {
        last.entry = { ...last.entry, shorter: path };
        last.list[last.list.length - 1] = last.entry;
        continue;
      }
      const tag = operation.tags?.[0] ?? 'other';
      const needsKey = needsKeyByDefault && (operation.security === undefined || operation.security.length > 0);
      const entry: OperationEntry = { method, path, shorter: null, operation, needsKey, anchor: `${version}-${operation.operationId}` };
      const list = byTag.get(tag) ?? [];
      list.push(entry);
      byTag.set(tag, list);
      last = { list, entry };
    }
  }
  // The documents' own routes last: what a reader looks for first are the operations.
  return [...byTag].map(([tag, entries]) => ({ tag, entries })).sort((a, b) => Number(a.tag === 'reference') - Number(b.tag === 'reference'));
}

function contents(sections: readonly { version: string; groups: readonly TagGroup[] }[]): SafeHtml {
  return html`<nav class="toc" aria-label="API reference contents"><ul>
${sections.map((s) => html`<li><a href="#${s.version}">${s.version} REST API</a><ul>${s.groups.map((g) => html`<li><a href="#${s.version}-${g.tag}">${capitalized(g.tag)}</a> <span class="muted">(${String(g.entries.length)})</span></li>`)}</ul></li>`)}
</ul></nav>`;
}

export function referenceBody(documents: readonly PublishedDocument[], publicUrl: string): SafeHtml {
  const sections = documents.map((d) => ({ ...d, groups: groups(d.version, d.document) }));
  return html`<div class="reference">
<h1>API reference</h1>
<p>Two REST APIs answer from the same index: <strong>v2</strong> needs no key (JSONP with <code>?callback=</code>, a per-IP rate limit);
<strong>v3</strong> needs an API key in the <code>API-KEY</code> header of every request, counted against its plan's daily quota
(keys are made on the <a href="${DASHBOARD_PATH}/keys">dashboard's keys page</a>). Amounts are strings with exactly 8 decimals.
The examples read the key from <code>$OUTPOINT_API_KEY</code>. Realtime events use the Pusher protocol on <code>/app/{key}</code> of this host.</p>
<p>Machine-readable: ${documents.map((d, i) => html`${i > 0 ? ', ' : ''}<a href="${d.path}">${d.path}</a>`)} (OpenAPI ${documents[0]?.document.openapi ?? '3.1'}).</p>
${contents(sections)}
${sections.map((s) => html`<section id="${s.version}" aria-labelledby="${s.version}-title">
<h2 id="${s.version}-title">${s.version} REST API</h2>
<p>${s.document.info.description}</p>
${s.groups.map((g) => html`<section id="${s.version}-${g.tag}" aria-labelledby="${s.version}-${g.tag}-title">
<h3 id="${s.version}-${g.tag}-title">${s.version} · ${capitalized(g.tag)}</h3>
${g.entries.map((e) => operationView(e, publicUrl))}
</section>`)}
</section>`)}
</div>`;
}
