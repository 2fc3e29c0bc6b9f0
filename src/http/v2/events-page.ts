/**
 * A catch-up page as it is sent: the v2 success envelope around the events, written as the feed reads them (a batch of
 * log rows at a time) and ended once the next event would pass the page's bytes (`[realtime] feed_page_kib`; the
 * first event goes whatever its size, so a cursor always moves) or the client network's bytes of the minute run out.
 * Either way `has_more` is true and `cursor` is the last event sent: the client asks again from there.
 */
import { BudgetSpentError } from '../../core/domain/errors.js';
import type { FeedStream } from '../../services/events/event-feed-service.js';

/** Bytes counted against the client's budget at a time (one counter round trip each), and at the end. */
const CHARGE_EVERY = 64 * 1024;

export async function* feedPageChunks(stream: FeedStream, maxBytes: number, charge: (bytes: number) => Promise<void>): AsyncGenerator<string> {
  const head = `{"status":"success","data":{"network":${JSON.stringify(stream.network)},"channel":${JSON.stringify(stream.channel)},"events":[`;
  let sent = Buffer.byteLength(head);
  let uncharged = sent;
  let cursor = stream.after;
  let count = 0;
  let cut = false;
  yield head;
  for await (const e of stream.events()) {
    const text = `${count > 0 ? ',' : ''}${JSON.stringify({ event_id: e.eventId, event: e.event, time: e.time, data: e.data })}`;
    const size = Buffer.byteLength(text);
    if (count > 0 && sent + size > maxBytes) {
      cut = true;
      break;
    }
    yield text;
    sent += size;
    uncharged += size;
    cursor = e.eventId;
    count++;
    if (uncharged >= CHARGE_EVERY) {
      try {
        await charge(uncharged);
      } catch (error) {
        if (!(error instanceof BudgetSpentError)) throw error;
        cut = true;
        break;
      }
      uncharged = 0;
    }
  }
  yield `],"cursor":${cursor},"has_more":${cut || stream.more},"last_event_id":${stream.lastEventId}}}`;
  // What is left of the page counts too; the page is sent, so a budget spent by it only refuses the next one.
  await charge(uncharged).catch(() => undefined);
}
