/** A PEM certificate (chain) and its key: the [http] pair, which the TLS and wss listeners present too. */
export interface TlsCredentials {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}
