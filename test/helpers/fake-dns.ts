/**
 * A DNS server on loopback UDP for tests: answers A and AAAA queries from a table, NXDOMAIN for names it does not
 * know, and nothing at all for names marked `stall` (a server that never answers). Records every query, so a test can
 * tell that a lookup went through the resolver it configured (`[webhooks] dns_servers`).
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIPv4 } from 'node:net';

export type DnsAnswer = readonly string[] | 'stall';

export interface FakeDns {
  readonly port: number;
  /** `name/A` or `name/AAAA` of every query, in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

function readName(message: Buffer, at: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = at;
  while (message[i]! !== 0) {
    const length = message[i]!;
    labels.push(message.subarray(i + 1, i + 1 + length).toString('ascii'));
    i += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function addressBytes(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]));
}

function reply(query: Buffer, questionEnd: number, records: readonly Buffer[], nxdomain: boolean): Buffer {
  const header = Buffer.from(query.subarray(0, 12));
  header.writeUInt16BE(0x8180 | (nxdomain ? 3 : 0), 2); // response, recursion desired and available, rcode
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  header.writeUInt16BE(0, 8);
  header.writeUInt16BE(0, 10);
  const question = query.subarray(12, questionEnd);
  const answers = records.map((data) => {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(data.length === 4 ? TYPE_A : TYPE_AAAA, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

export async function startFakeDns(table: Readonly<Record<string, DnsAnswer>>): Promise<FakeDns> {
  const socket: Socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message, from) => {
    if (message.length < 17) return;
    const { name, end } = readName(message, 12);
    const type = message.readUInt16BE(end);
    queries.push(`${name}/${type === TYPE_A ? 'A' : type === TYPE_AAAA ? 'AAAA' : type}`);
    const entry = table[name];
    if (entry === 'stall') return;
    const records = (entry ?? []).map(addressBytes).filter((b) => (type === TYPE_A ? b.length === 4 : type === TYPE_AAAA ? b.length === 16 : false));
    socket.send(reply(message, end + 4, records, entry === undefined), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
