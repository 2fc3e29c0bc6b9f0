/**
 * Typed errors with stable codes. Entry layers map these codes to each API's
 * error shape once, so no route needs its own try/catch.
 */
export type ErrorCode =
  | 'PARSE_ERROR'
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'UNSUPPORTED_NETWORK'
  | 'RPC_ERROR'
  | 'RPC_UNAVAILABLE'
  | 'CONFIG_ERROR'
  | 'STORE_ERROR'
  | 'UNAUTHORIZED'
  | 'QUOTA_EXCEEDED'
  | 'CONCURRENCY_EXCEEDED'
  | 'RATE_LIMITED'
  | 'REJECTED';

export class OutpointError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Malformed bytes (block, transaction, script push data). `offset` is where reading failed. */
export class ParseError extends OutpointError {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super('PARSE_ERROR', `${message} at offset ${offset}`);
    this.offset = offset;
  }
}

/** A caller-supplied value (address, txid, height, config key) is not acceptable. `field` names it. */
export class InvalidArgumentError extends OutpointError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('INVALID_ARGUMENT', message);
    this.field = field;
  }
}

export class NotFoundError extends OutpointError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('NOT_FOUND', message);
    this.field = field;
  }
}

export class UnsupportedNetworkError extends OutpointError {
  constructor(network: string) {
    super('UNSUPPORTED_NETWORK', `network ${network} is not supported by this server`);
  }
}

/** An error answered by a full node's JSON-RPC interface, with the node's own code and message. */
export class RpcError extends OutpointError {
  readonly rpcCode: number;
  readonly method: string;
  constructor(method: string, rpcCode: number, message: string) {
    super('RPC_ERROR', message);
    this.rpcCode = rpcCode;
    this.method = method;
  }
}

/** The node could not be reached (connection refused, timeout) after the configured retries. */
export class RpcUnavailableError extends OutpointError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RPC_UNAVAILABLE', message, options);
  }
}

export class ConfigError extends OutpointError {
  constructor(message: string) {
    super('CONFIG_ERROR', message);
  }
}

export class StoreError extends OutpointError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORE_ERROR', message, options);
  }
}
