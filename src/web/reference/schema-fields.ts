/**
 * An answer's JSON schema as the rows a person reads: each field by its path (`data.outputs[].value`), its type and
 * what it means. The route schemas are the ones the server serializes with, so the rows are what clients receive.
 */
import type { JsonSchema } from '../../core/infrastructure/api-documents.js';

export interface FieldRow {
  /** `status`, `data.balance`, `data.outputs[].value`, `data.{field}` (any key). */
  readonly path: string;
  readonly type: string;
  readonly description: string;
}

type Node = JsonSchema & {
  type?: string | readonly string[];
  properties?: Readonly<Record<string, Node>>;
  additionalProperties?: Node | boolean;
  items?: Node;
  enum?: readonly unknown[];
  pattern?: string;
  description?: string;
};

/** "string", "integer or null", "array", "string: one of \"success\"". */
function typeOf(node: Node): string {
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type as string] : ['any'];
  const named = types.join(' or ');
  if (node.enum) return `${named}: ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  return named;
}

function describe(node: Node): string {
  if (node.description) return node.description;
  if (node.pattern === '^-?\\d+\\.\\d{8}$') return 'Coins, exactly 8 decimals';
  return '';
}

/** Every field under `schema`, depth first, in the schema's order. */
export function fieldRows(schema: JsonSchema, prefix = ''): FieldRow[] {
  const node = schema as Node;
  const rows: FieldRow[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push({ path, type: typeOf(child), description: describe(child) });
    rows.push(...childRows(child, path));
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const path = prefix ? `${prefix}.{field}` : '{field}';
    rows.push({ path, type: typeOf(node.additionalProperties), description: describe(node.additionalProperties) || 'Any key: the field that failed, with what was wrong' });
  }
  return rows;
}

function childRows(child: Node, path: string): FieldRow[] {
  if (child.items) return fieldRows(child.items, `${path}[]`);
  return fieldRows(child, path);
}
