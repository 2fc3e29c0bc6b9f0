import { InvalidArgumentError } from '../../core/domain/errors.js';

/** Deep pages cost an OFFSET scan; past this no address has history anyway. */
const MAX_PAGE = 1_000_000;

/** `{page}`: a decimal integer from 1 (default 1). */
export function parsePage(text: string | undefined): number {
  if (text === undefined || text === '') return 1;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAGE) {
    throw new InvalidArgumentError('page', `page must be an integer from 1 to ${MAX_PAGE} (1 is the first page)`);
  }
  return Number(text);
}

/** `{unix_timestamp}`: non-negative UNIX seconds, or undefined for "now". */
export function parseTimestamp(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,11}$/.test(text)) throw new InvalidArgumentError('timestamp', 'timestamp must be a UNIX time in seconds');
  return Number(text);
}
