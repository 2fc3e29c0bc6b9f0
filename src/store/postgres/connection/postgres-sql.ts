/** Small helpers shared by the PostgreSQL modules. */
import type pg from 'pg';
import { hexToBytes } from '../../common/schema/codec.js';

export type Queryable = pg.Pool | pg.ClientBase;
export type Row = Record<string, unknown>;

export async function rows(db: Queryable, text: string, values: unknown[] = []): Promise<Row[]> {
  return (await db.query(text, values)).rows as Row[];
}

export async function one(db: Queryable, text: string, values: unknown[] = []): Promise<Row | undefined> {
  return (await rows(db, text, values))[0];
}

/** Whether a table (or any relation) of that name exists in the session's search path. */
export async function tableExists(db: Queryable, name: string): Promise<boolean> {
  return (await one(db, 'SELECT to_regclass($1) AS r', [name]))!.r !== null;
}

/** int8 and numeric arrive as strings; callers narrow ints that are known to be small. */
export function num(value: unknown): number {
  return Number(value);
}

export function big(value: unknown): bigint {
  return BigInt(value as string);
}

/** bigint parameters are sent as decimal text so pg never routes them through a JS number. */
export function dec(values: readonly bigint[]): string[] {
  return values.map((v) => v.toString());
}

export function txidArray(txids: readonly string[]): Buffer[] {
  return txids.map(hexToBytes);
}

/** Advisory-lock namespace ("Outp"); the second key is the network code (0 = migrations). */
export const LOCK_NAMESPACE = 0x4f757470;

const statementNames = new Map<string, string>();

/**
 * rows() through a named prepared statement: each pooled connection parses and plans the text once, then runs it with
 * new values (PostgreSQL's plan cache). For the hot reads of the API, whose texts are fixed per network; a name is
 * given per distinct text, so the same name never stands for two texts on one connection.
 */
export async function preparedRows(db: Queryable, text: string, values: unknown[]): Promise<Row[]> {
  return (await preparedResult(db, text, values)).rows as Row[];
}

/** preparedRows' whole result (rowCount for a statement without rows). */
export function preparedResult(db: Queryable, text: string, values: unknown[]): Promise<pg.QueryResult> {
  let name = statementNames.get(text);
  if (!name) {
    name = `outpoint_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return db.query({ name, text, values });
}
