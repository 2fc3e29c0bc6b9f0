/**
 * Reads the service's log lines (src/main/logging/logger.ts: `ISO-time level message key=value …`) for the scale benchmark:
 * sync progress heights, the phase a line names (the bulk initial sync's "loading", "building indexes", "catching
 * up"; none today), and where each phase starts. Field values may contain spaces ("phase=building indexes"): a
 * value runs until the next ` key=`.
 */
import type { LogLine } from './serve-process.js';

export const PHASES = ['loading', 'building indexes', 'catching up'] as const;

export interface ParsedLine {
  /** Milliseconds since the service was spawned. */
  readonly at: number;
  readonly level: string;
  readonly message: string;
  readonly fields: Record<string, string>;
  /** The phase the line names, if any: a `phase` field, else a phase name in the message. */
  readonly phase: string | null;
}

export function parseLine(line: LogLine): ParsedLine | null {
  const head = /^(\S+) (info|warn|error) (.*)$/.exec(line.text);
  if (!head) return null;
  const rest = head[3]!;
  const firstField = rest.search(/(^|\s)\w+=/);
  const message = (firstField < 0 ? rest : rest.slice(0, firstField)).trim();
  const fields: Record<string, string> = {};
  if (firstField >= 0) {
    for (const part of rest.slice(firstField).trim().split(/\s(?=\w+=)/)) {
      const eq = part.indexOf('=');
      fields[part.slice(0, eq)] = part.slice(eq + 1).replace(/^"(.*)"$/, '$1');
    }
  }
  const named = fields['phase'] ?? PHASES.find((p) => message.toLowerCase().includes(p)) ?? null;
  return { at: line.at, level: head[2]!, message, fields, phase: named ? named.toLowerCase() : null };
}

export interface HeightSample {
  readonly at: number;
  readonly height: number;
}

export interface PhaseSpan {
  readonly phase: string;
  readonly from: number;
  readonly to: number;
}

export interface SyncLog {
  /** Heights reported while blocks were being added (progress lines with a height). */
  readonly samples: HeightSample[];
  /** Consecutive spans of the phases named, in order (empty when the log names none). */
  readonly phases: PhaseSpan[];
  /** The 'sync finished' fields, when logged. */
  readonly finished: Record<string, string> | null;
  readonly errors: string[];
}

/** Progress samples and phase spans from the lines logged before `until` (ms since spawn). */
export function readSyncLog(lines: readonly LogLine[], until: number): SyncLog {
  const samples: HeightSample[] = [];
  const phases: PhaseSpan[] = [];
  const errors: string[] = [];
  let finished: Record<string, string> | null = null;
  let current = null as { phase: string; from: number } | null;
  for (const raw of lines) {
    if (raw.at > until) break;
    const line = parseLine(raw);
    if (!line) continue;
    if (line.level === 'error') errors.push(raw.text);
    if (line.phase && line.phase !== current?.phase) {
      if (current) phases.push({ ...current, to: line.at });
      current = { phase: line.phase, from: line.at };
    }
    const height = Number(line.fields['height']);
    if (line.message.startsWith('sync') && Number.isInteger(height) && height >= 0) samples.push({ at: line.at, height });
    if (line.message === 'sync finished' && finished === null) {
      finished = line.fields;
      if (current) phases.push({ ...current, to: line.at });
      current = null;
    }
  }
  if (current) phases.push({ ...current, to: until });
  return { samples, phases, finished, errors };
}
