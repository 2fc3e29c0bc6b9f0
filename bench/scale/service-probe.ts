/**
 * What the benchmark asks the running service, through its public v2 API as a user would: the indexed height
 * (get_info `blocks`) and an address balance (get_address_balance: answering at the tip is what "ready" means).
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

function get(url: string, timeoutMs = 10_000): Promise<Answer | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // not JSON: status alone
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/** The service's indexed height for the network, or null when it does not answer (yet). */
export async function indexedHeight(baseUrl: string, network: string): Promise<number | null> {
  const answer = await get(`${baseUrl}/api/v2/get_info/${network}`);
  const data = (answer?.body as { data?: { blocks?: unknown } } | null)?.data;
  return answer?.status === 200 && typeof data?.blocks === 'number' ? data.blocks : null;
}

/** The confirmed balance (8-decimal string) when the address query answers with success, else null. */
export async function confirmedBalance(baseUrl: string, network: string, address: string): Promise<string | null> {
  const answer = await get(`${baseUrl}/api/v2/get_address_balance/${network}/${address}`);
  const body = answer?.body as { status?: string; data?: { confirmed_balance?: unknown } } | null;
  return answer?.status === 200 && body?.status === 'success' && typeof body.data?.confirmed_balance === 'string' ? body.data.confirmed_balance : null;
}

export function closeProbes(): void {
  agent.destroy();
}
