// @mempool/electrum-client (what mempool.space's backend talks to Electrum servers with) ships no type declarations;
// only what the Electrum tests use is declared.
declare module '@mempool/electrum-client' {
  // The package is CommonJS: its module.exports is the class, which is what a default import is.
  // eslint-disable-next-line no-restricted-syntax
  export default class ElectrumClient {
    constructor(port: number, host: string, protocol: 'tcp' | 'tls' | 'ssl', options?: unknown, callbacks?: { onLog?: (text: string) => void });
    initElectrum(config: { client: string; version: string }, persistence?: { retryPeriod: number; maxRetry: number; pingPeriod: number; callback: unknown }): Promise<ElectrumClient>;
    versionInfo: [string, string];
    close(): void;
    blockchainScripthash_getBalance(scripthash: string): Promise<{ confirmed: number; unconfirmed: number }>;
    blockchainScripthash_getBalanceBatch(scripthashes: string[]): Promise<{ param: string; result: { confirmed: number; unconfirmed: number } }[]>;
    blockchainScripthash_getHistory(scripthash: string): Promise<{ tx_hash: string; height: number; fee?: number }[]>;
    blockchainScripthash_getHistoryBatch(scripthashes: string[]): Promise<{ param: string; result: { tx_hash: string; height: number; fee?: number }[] }[]>;
    blockchainScripthash_getMempool(scripthash: string): Promise<{ tx_hash: string; height: number; fee: number }[]>;
    blockchainScripthash_listunspent(scripthash: string): Promise<{ tx_hash: string; tx_pos: number; height: number; value: number }[]>;
    blockchainTransaction_get(txid: string, verbose?: boolean): Promise<unknown>;
    blockchainHeaders_subscribe(): Promise<{ height: number; hex: string }>;
  }
}
