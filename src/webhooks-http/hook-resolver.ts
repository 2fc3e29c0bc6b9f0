/**
 * Name resolution for webhook targets, at registration and for every call. Through c-ares (`dns.promises.Resolver`),
 * not `dns.lookup`: lookup runs getaddrinfo on libuv's thread pool, the four threads that scrypt (dashboard sign-ins)
 * and file reads also wait for, so a client registering hooks on names whose DNS server never answers could hold
 * them all for the system resolver's whole timeout. Here each name gets its own deadline (`[webhooks] dns_timeout_ms`)
 * and no thread. DNS only: /etc/hosts is not read, except that `localhost` and `*.localhost` are loopback (RFC 6761).
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export interface HookResolverOptions {
  /** Whole resolution (A and AAAA together) abandoned after this long. */
  readonly timeoutMs: number;
  /** `host` or `host:port` servers; empty: the system's (resolv.conf). */
  readonly servers?: readonly string[];
}

/** A failed resolution: `code` as c-ares names it (ENOTFOUND, ETIMEOUT, …). */
export class ResolveError extends Error {
  constructor(readonly code: string) {
    super(`does not resolve (${code})`);
  }
}

const LOOPBACK: readonly ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];

export class HookResolver {
  private readonly resolver: Resolver;

  constructor(private readonly options: HookResolverOptions) {
    // Two tries of half the deadline each: one lost UDP packet does not fail a name.
    this.resolver = new Resolver({ timeout: Math.max(50, Math.floor(options.timeoutMs / 2)), tries: 2 });
    if (options.servers && options.servers.length > 0) this.resolver.setServers([...options.servers]);
  }

  /** Every address of `host` (IPv4 first); ResolveError when it has none or the deadline passed. */
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const name = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    const family = isIP(name);
    if (family !== 0) return [{ address: name, family: family as 4 | 6 }];
    if (name === 'localhost' || name.endsWith('.localhost')) return [...LOOPBACK];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new ResolveError('ETIMEOUT')), this.options.timeoutMs);
    });
    try {
      return await Promise.race([this.both(name), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async both(name: string): Promise<ResolvedAddress[]> {
    const [v4, v6] = await Promise.allSettled([this.resolver.resolve4(name), this.resolver.resolve6(name)]);
    const found: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (found.length > 0) return found;
    // The telling failure (a timeout, a refusal) over "no such record" of the other family.
    const codes = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [(r.reason as NodeJS.ErrnoException).code ?? 'ENOTFOUND'] : []));
    throw new ResolveError(codes.find((c) => c !== 'ENODATA' && c !== 'ENOTFOUND') ?? 'ENOTFOUND');
  }
}
