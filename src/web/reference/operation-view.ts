/**
 * One operation of the API reference: its method and path (and the shorter path where a last segment may be left
 * out), what it does, its parameters, an example curl line to copy, and the fields of each answer.
 */
import type { JsonSchema, OpenApiOperation, OpenApiParameter } from '../../core/infrastructure/api-documents.js';
import { curlCommand } from '../explorer/api-links.js';
import { table } from '../explorer/format.js';
import { html, joinHtml, type SafeHtml } from '../shell/html.js';
import { fieldRows } from './schema-fields.js';

export interface OperationEntry {
  readonly method: string;
  /** The path with every segment; `shorter` is the same operation without its optional last one. */
  readonly path: string;
  readonly shorter: string | null;
  readonly operation: OpenApiOperation;
  /** The request needs the API-KEY header. */
  readonly needsKey: boolean;
  /** Unique on the page: the element ids of this operation start with it. */
  readonly anchor: string;
}

/** Example values for path parameters: real-looking where one value fits every network, else a placeholder. */
const EXAMPLES: Readonly<Record<string, string>> = { network: 'BTC', coin: 'BTC', base_currency: 'USD', page: '1', confirmations: '6' };

function examplePath(path: string): string {
  return path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => EXAMPLES[name] ?? name.toUpperCase());
}

function curlLine(entry: OperationEntry, publicUrl: string): string {
  const post = entry.method === 'post' ? `-X POST -H 'Content-Type: application/json' -d '{"tx_hex":"TX_HEX"}' ` : '';
  return curlCommand(publicUrl + examplePath(entry.path), entry.needsKey, post);
}

function parameterRows(parameters: readonly OpenApiParameter[]): SafeHtml[] {
  return parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.in}${p.required ? '' : ', optional'}</td><td>${p.description ?? ''}</td></tr>`);
}

/** `text` with a line-break opportunity after each `separator` (long paths wrap at their joints, not mid-word). */
function breakable(text: string, separator: string): SafeHtml {
  return joinHtml(text.split(separator).map((part) => html`${part}`), html`${separator}<wbr>`);
}

const head = (...titles: readonly string[]): SafeHtml => html`<tr>${titles.map((t) => html`<th scope="col">${t}</th>`)}</tr>`;

function fieldsTable(entry: OperationEntry, label: string, schema: JsonSchema): SafeHtml {
  const rows = fieldRows(schema).map((r) => html`<tr><td><code>${breakable(r.path, '.')}</code></td><td>${r.type}</td><td>${r.description}</td></tr>`);
  return table(`${entry.method.toUpperCase()} ${entry.path}, ${label}`, head('Field', 'Type', 'Meaning'), rows);
}

/** The success answer's fields, then the failures: each status with its meaning, and each distinct failure body once. */
function answers(entry: OperationEntry): SafeHtml {
  const [success, ...failures] = Object.entries(entry.operation.responses);
  const successSchema = success?.[1].content?.['application/json']?.schema;
  const bodies = new Map<string, { statuses: string[]; schema: JsonSchema }>();
  for (const [status, response] of failures) {
    const schema = response.content?.['application/json']?.schema;
    if (!schema) continue;
    const key = JSON.stringify(schema);
    bodies.set(key, { statuses: [...(bodies.get(key)?.statuses ?? []), status], schema });
  }
  return html`${success ? html`<h5>${success[0]}: ${success[1].description}</h5>${successSchema ? fieldsTable(entry, `answer ${success[0]}`, successSchema) : ''}` : ''}
${failures.length > 0 ? html`<h5>Failures</h5>
<ul class="statuses">${failures.map(([status, response]) => html`<li><strong>${status}</strong>: ${response.description}</li>`)}</ul>
${[...bodies.values()].map((b) => html`<p class="muted">Body of ${b.statuses.join(', ')}:</p>${fieldsTable(entry, `answer ${b.statuses.join(', ')}`, b.schema)}`)}` : ''}`;
}

export function operationView(entry: OperationEntry, publicUrl: string): SafeHtml {
  const { operation } = entry;
  const curlId = `${entry.anchor}-curl`;
  return html`<article class="operation" id="${entry.anchor}" aria-labelledby="${entry.anchor}-title">
<h4 id="${entry.anchor}-title"><span class="method">${entry.method.toUpperCase()}</span> <code class="path">${breakable(entry.path, '/')}</code></h4>
${operation.summary ? html`<p>${operation.summary}.</p>` : ''}
${entry.shorter ? html`<p class="muted">The last segment may be left out: <code class="path">${breakable(entry.shorter, '/')}</code>.</p>` : ''}
${entry.needsKey ? html`<p class="muted">Needs an API key in the <code>API-KEY</code> header.</p>` : ''}
${operation.parameters.length > 0 ? table(`${entry.method.toUpperCase()} ${entry.path}, parameters`, head('Parameter', 'In', 'Meaning'), parameterRows(operation.parameters)) : ''}
<div class="copy-line"><pre id="${curlId}">${curlLine(entry, publicUrl)}</pre><button type="button" class="secondary" data-copy="${curlId}" hidden>Copy</button></div>
${answers(entry)}
</article>`;
}
