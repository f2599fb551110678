// Types of wire.mjs for servers written in TypeScript (see README.md).

export declare const PROTOCOL_VERSION: string;

/** A keyword-argument object the kit sent with a call: the contract's Python names (`reset_usage`). */
export type Kwargs = Record<string, unknown>;

export interface ServeOptions {
  name: string;
  version: string;
  /** Default: `node <version>` or `bun <version>`. */
  language?: string;
  /** Names of synapse_spec.contract.CAPABILITIES. */
  capabilities: string[];
  /** "live" (default): SYNAPSE_* settings are read when used; "build": kept from construction. */
  settings?: "live" | "build";
  /** Contract factory name (snake_case) -> function; called as `f(...args)` or `f(...args, kwargs)`. */
  factories: Record<string, (...args: any[]) => unknown>;
  /** Properties of handle 0 besides name, version and capabilities (`stop_hook_marker`). */
  properties?: Record<string, unknown>;
  /** After `configure` replaced the process's SYNAPSE_* variables and HOME; may ask for a restart. */
  onConfigure?: (env: Record<string, string>) => { restart: true } | null | void;
  /** After `reset` forgot every handle and port. */
  onReset?: () => void;
}

export declare class Connection {
  /** `data`: a JSON object of structured fields logged beside the message (protocol 1.1), never folded into it. */
  log(
    level: "debug" | "info" | "warning" | "error",
    logger: string,
    message: string,
    error?: unknown,
    data?: Record<string, unknown>,
  ): void;
  encode(value: unknown): unknown;
  decode(value: unknown): unknown;
}

/** Serve the protocol on stdin/stdout until stdin ends or `shutdown` arrives. */
export declare function serve(options: ServeOptions): Connection;

export interface Logger {
  readonly name: string;
  debug(message: string, error?: unknown, data?: Record<string, unknown>): void;
  info(message: string, error?: unknown, data?: Record<string, unknown>): void;
  warning(message: string, error?: unknown, data?: Record<string, unknown>): void;
  warn(message: string, error?: unknown, data?: Record<string, unknown>): void;
  error(message: string, error?: unknown, data?: Record<string, unknown>): void;
}

/** A logger on a dotted name starting with `synapse`; each record is a `log` notification. */
export declare function getLogger(name: string): Logger;

/** Keyword arguments of a call into a kit port: `llm.generate(system, messages, tools, kw({ max_tokens: 9600 }))`. */
export declare function kw(kwargs: Kwargs): { readonly kwargs: Kwargs };

/** Mark a plain object literal as a server object, sent as a `$handle` of `type`. */
export declare function handle<T extends object>(obj: T, type?: string): T;

/** True for a JS object that stands for one of the kit's ports. */
export declare function isPort(value: unknown): boolean;

/** `fn` always receives `count` positional arguments (padded with undefined), then the keyword object. */
export declare function positional<F extends (...args: any[]) => unknown>(count: number, fn: F): F;

/** An error raised by a kit port, named after the kit's exception class (`RuntimeError`, `AbortError`). */
export declare class PortError extends Error {
  constructor(name: string, message: string);
}

/** An error carrying a JSON-RPC code (-32601 unknown member, -32602 unknown handle, -32603 internal). */
export declare class WireError extends Error {
  readonly code: number;
  constructor(code: number, message: string);
}

export declare function camelCase(name: string): string;
export declare function snakeCase(name: string): string;
export declare function callMember(obj: unknown, name: string, args: unknown[], kwargs?: Kwargs): unknown;
export declare function getMember(obj: unknown, name: string): unknown;
