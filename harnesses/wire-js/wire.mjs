// The server side of the Synapse wire protocol (synapse_spec/protocol/PROTOCOL.md) for node >= 20 and bun >= 1.3.
//
// One ES module, no dependencies. A harness calls `serve({...})` with the factories of the contract's
// `Implementation`; this module speaks NDJSON JSON-RPC 2.0 on stdin/stdout, answers synchronous callbacks on
// the fd named by SYNAPSE_WIRE_SYNC_FD with blocking reads, keeps the handle table and turns the kit's ports
// into JS objects. See README.md for the API.

import fs from "node:fs";
import process from "node:process";

export const PROTOCOL_VERSION = "1.2";

const KWARGS = Symbol.for("synapse.wire.kwargs");
const HANDLE_TYPE = Symbol.for("synapse.wire.handleType");
const PORT = Symbol.for("synapse.wire.port");

// --------------------------------------------------------------------------------------------------------
// Names
// --------------------------------------------------------------------------------------------------------

/** `offload_if_needed` -> `offloadIfNeeded`. */
export function camelCase(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** `maxTokens` -> `max_tokens`. */
export function snakeCase(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// --------------------------------------------------------------------------------------------------------
// Errors
// --------------------------------------------------------------------------------------------------------

/** An error that carries a protocol error code (a member the server does not have: -32601). */
export class WireError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "WireError";
    this.code = code;
  }
}

/** An error raised by one of the kit's ports, named after the kit's exception class. */
export class PortError extends Error {
  constructor(name, message) {
    super(message);
    Object.defineProperty(this, "name", { value: name || "Error", enumerable: false, writable: true });
  }
}

function errorData(error) {
  if (error instanceof Error || (error && typeof error === "object" && "message" in error)) {
    return { name: String(error.name || "Error"), message: String(error.message ?? "") };
  }
  return { name: "Error", message: String(error) };
}

// --------------------------------------------------------------------------------------------------------
// Markers a harness uses
// --------------------------------------------------------------------------------------------------------

/** Keyword arguments of a call into a kit port: `llm.generate(sys, msgs, tools, kw({max_tokens: 9600}))`. */
export function kw(kwargs) {
  return { [KWARGS]: true, kwargs };
}

/** Mark `obj` as a server object (sent as a `$handle`), even when it is a plain object literal. */
export function handle(obj, type) {
  Object.defineProperty(obj, HANDLE_TYPE, { value: type ?? obj?.constructor?.name ?? "Object", enumerable: false });
  return obj;
}

/** True for a JS object that stands for one of the kit's ports (so harnesses can tell doubles apart). */
export function isPort(value) {
  return value != null && (typeof value === "object" || typeof value === "function") && PORT in value;
}

function isPlainData(value) {
  if (value === null || typeof value !== "object") return false;
  if (HANDLE_TYPE in value || PORT in value) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// --------------------------------------------------------------------------------------------------------
// The connection
// --------------------------------------------------------------------------------------------------------

function writeAll(fd, text) {
  let buf = Buffer.from(text, "utf8");
  while (buf.length > 0) {
    try {
      const n = fs.writeSync(fd, buf);
      buf = buf.subarray(n);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
    }
  }
}

class LineReader {
  // Blocking line reads from a pipe fd (responses to synchronous callbacks).
  constructor(fd) {
    this.fd = fd;
    this.pending = Buffer.alloc(0);
    this.chunk = Buffer.alloc(65536);
  }

  readLine() {
    for (;;) {
      const nl = this.pending.indexOf(10);
      if (nl >= 0) {
        const line = this.pending.subarray(0, nl).toString("utf8");
        this.pending = this.pending.subarray(nl + 1);
        if (line.trim() === "") continue;
        return line;
      }
      let n;
      try {
        n = fs.readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      } catch (error) {
        if (error.code === "EAGAIN") continue;
        throw error;
      }
      if (n === 0) throw new WireError(-32603, `the synchronous channel (fd ${this.fd}) was closed`);
      this.pending = Buffer.concat([this.pending, this.chunk.subarray(0, n)]);
    }
  }
}

export class Connection {
  constructor({ output = 1, syncFd = null } = {}) {
    this.output = output;
    this.syncReader = syncFd == null ? null : new LineReader(syncFd);
    this.handles = new Map(); // id -> object
    this.handleIds = new Map(); // object -> id
    this.nextHandle = 1;
    this.ports = new Map(); // port id -> JS proxy
    this.nextId = 1;
    this.waiting = new Map(); // async callback id -> {resolve, reject}
    this.methods = new Map();
    this.root = null;
  }

  send(message) {
    writeAll(this.output, `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  // -- logging ------------------------------------------------------------------------------------------

  log(level, logger, message, error, data) {
    const params = { level, logger, message: String(message) };
    if (error !== undefined && error !== null) params.error = errorData(error);
    if (data !== undefined && data !== null) params.data = data;
    this.send({ method: "log", params });
  }

  // -- handles ------------------------------------------------------------------------------------------

  setRoot(obj) {
    this.root = obj;
    this.handles.set(0, obj);
    this.handleIds.set(obj, 0);
  }

  handleOf(obj) {
    let id = this.handleIds.get(obj);
    if (id === undefined) {
      id = this.nextHandle++;
      this.handles.set(id, obj);
      this.handleIds.set(obj, id);
    }
    const type = obj[HANDLE_TYPE] ?? (typeof obj === "function" ? "function" : obj?.constructor?.name) ?? "Object";
    return { $handle: id, type };
  }

  object(id) {
    if (!this.handles.has(id)) throw new WireError(-32602, `unknown handle ${id}`);
    return this.handles.get(id);
  }

  release(ids) {
    for (const id of ids ?? []) {
      if (id === 0) continue;
      const obj = this.handles.get(id);
      this.handles.delete(id);
      if (obj !== undefined) this.handleIds.delete(obj);
    }
  }

  reset() {
    this.handles.clear();
    this.handleIds.clear();
    this.ports.clear();
    if (this.root !== null) this.setRoot(this.root);
  }

  // -- values -------------------------------------------------------------------------------------------

  encode(value) {
    if (value === undefined || value === null) return null;
    switch (typeof value) {
      case "number":
        if (Number.isNaN(value)) return { $float: "NaN" };
        if (value === Infinity) return { $float: "Infinity" };
        if (value === -Infinity) return { $float: "-Infinity" };
        return value;
      case "bigint":
        return Number(value);
      case "string":
      case "boolean":
        return value;
      case "symbol":
        return String(value.description ?? "");
      default:
        break;
    }
    if (PORT in value) return value[PORT].ref;
    if (Array.isArray(value)) return value.map((v) => this.encode(v));
    if (value instanceof Set) return { $set: [...value].map((v) => this.encode(v)) };
    if (value instanceof Error) return { $error: errorData(value) };
    if (value instanceof Date) return { $datetime: value.toISOString() };
    if (value instanceof Map) return this.encodeRecord(Object.fromEntries(value));
    if (isPlainData(value)) return this.encodeRecord(value);
    return this.handleOf(value);
  }

  encodeRecord(obj) {
    const out = {};
    let special = false;
    for (const [key, v] of Object.entries(obj)) {
      if (v === undefined) continue;
      if (key.startsWith("$")) special = true;
      out[key] = this.encode(v);
    }
    return special ? { $object: out } : out;
  }

  decode(value) {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => this.decode(v));
    if ("$handle" in value) return this.object(value.$handle);
    if ("$port" in value) return this.port(value);
    if ("$float" in value) return Number(value.$float);
    if ("$datetime" in value) return new Date(value.$datetime);
    if ("$set" in value) return new Set(value.$set.map((v) => this.decode(v)));
    if ("$error" in value) {
      const { name, message } = value.$error;
      return new PortError(name, message);
    }
    const source = "$object" in value ? value.$object : value;
    const out = {};
    for (const [key, v] of Object.entries(source)) out[key] = this.decode(v);
    return out;
  }

  // -- ports (the kit's objects) -----------------------------------------------------------------------

  port(ref) {
    const known = this.ports.get(ref.$port);
    if (known !== undefined) return known;
    const id = ref.$port;
    let proxy;
    if (ref.type === "callable" || ref.call !== undefined) {
      const sync = ref.call === "sync";
      proxy = (...args) => this.callPort(id, null, args, sync);
    } else {
      proxy = {};
      for (const [member, kind] of Object.entries(ref.members ?? {})) {
        const names = [...new Set([member, camelCase(member)])];
        for (const name of names) {
          if (kind === "property") {
            Object.defineProperty(proxy, name, {
              get: () => this.getPort(id, member),
              enumerable: name === member,
            });
          } else {
            const sync = kind === "sync";
            Object.defineProperty(proxy, name, {
              value: (...args) => this.callPort(id, member, args, sync),
              enumerable: name === member,
            });
          }
        }
      }
    }
    Object.defineProperty(proxy, PORT, { value: { id, ref: { $port: id, type: ref.type } } });
    Object.defineProperty(proxy, "portType", { value: ref.type, enumerable: false });
    this.ports.set(id, proxy);
    return proxy;
  }

  callPort(port, member, rawArgs, sync) {
    let args = rawArgs;
    let kwargs = {};
    const last = args[args.length - 1];
    if (last !== null && typeof last === "object" && last[KWARGS]) {
      args = args.slice(0, -1);
      for (const [k, v] of Object.entries(last.kwargs)) kwargs[snakeCase(k)] = this.encode(v);
    }
    // Trailing undefined arguments are "not passed" (the kit applies its defaults).
    while (args.length > 0 && args[args.length - 1] === undefined) args = args.slice(0, -1);
    const params = { port, member, args: args.map((a) => this.encode(a)), kwargs, sync };
    return sync ? this.request(params, "port.call") : this.requestAsync(params, "port.call");
  }

  getPort(port, member) {
    return this.request({ port, member, sync: true }, "port.get");
  }

  requestAsync(params, method) {
    const id = `a${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.send({ id, method, params });
    });
  }

  /** A synchronous callback: block on the sync channel, serving nested requests, until its response comes. */
  request(params, method) {
    if (this.syncReader === null) {
      throw new WireError(-32603, "no synchronous channel: SYNAPSE_WIRE_SYNC_FD is not set");
    }
    const id = `s${this.nextId++}`;
    this.send({ id, method, params: { ...params, sync: true } });
    for (;;) {
      const line = this.syncReader.readLine();
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        this.send({ id: null, error: { code: -32700, message: "parse error on the synchronous channel" } });
        continue;
      }
      if (message.method !== undefined) {
        this.serveSync(message);
        continue;
      }
      if (message.id !== id) {
        const waiter = this.waiting.get(message.id);
        if (waiter !== undefined) this.settle(message);
        continue;
      }
      if (message.error) throw this.portError(message.error);
      return this.decode(message.result);
    }
  }

  portError(error) {
    const data = error.data ?? {};
    return new PortError(data.name ?? "Error", data.message ?? error.message ?? "");
  }

  settle(message) {
    const waiter = this.waiting.get(message.id);
    if (waiter === undefined) return;
    this.waiting.delete(message.id);
    if (message.error) waiter.reject(this.portError(message.error));
    else {
      try {
        waiter.resolve(this.decode(message.result));
      } catch (error) {
        waiter.reject(error);
      }
    }
  }

  // -- requests from the kit ----------------------------------------------------------------------------

  errorResponse(id, error) {
    if (error instanceof WireError) {
      return { id, error: { code: error.code, message: error.message, data: errorData(error) } };
    }
    const data = errorData(error);
    return { id, error: { code: -32000, message: data.message, data } };
  }

  /** A request nested in a synchronous callback: served at once; an async member cannot be awaited here. */
  serveSync(message) {
    const { id, method, params } = message;
    try {
      const result = this.dispatch(method, params ?? {});
      if (result !== null && typeof result === "object" && typeof result.then === "function") {
        result.then(
          () => {},
          () => {},
        );
        throw new WireError(-32603, `${method} ${params?.method ?? params?.name ?? ""}: an async member cannot be served inside a synchronous callback`);
      }
      if (id !== undefined && id !== null) this.send({ id, result: this.encode(result) });
    } catch (error) {
      if (id !== undefined && id !== null) this.send(this.errorResponse(id, error));
    }
  }

  async serve(message) {
    const { id, method, params } = message;
    try {
      let result = this.dispatch(method, params ?? {});
      if (result !== null && typeof result === "object" && typeof result.then === "function") result = await result;
      if (id !== undefined && id !== null) this.send({ id, result: this.encode(result) });
    } catch (error) {
      if (id !== undefined && id !== null) this.send(this.errorResponse(id, error));
      else process.stderr.write(`synapse wire: notification ${method} failed: ${error?.stack ?? error}\n`);
    }
  }

  dispatch(method, params) {
    const handler = this.methods.get(method);
    if (handler === undefined) throw new WireError(-32601, `unknown method ${method}`);
    return handler(params);
  }

  /** A line from stdin: a request, a notification, or a response to an async callback. */
  receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      this.send({ id: null, error: { code: -32700, message: "parse error" } });
      return;
    }
    if (message === null || typeof message !== "object") {
      this.send({ id: null, error: { code: -32600, message: "invalid request" } });
      return;
    }
    if (message.method === undefined) {
      this.settle(message);
      return;
    }
    void this.serve(message);
  }
}

// --------------------------------------------------------------------------------------------------------
// Member access on server objects
// --------------------------------------------------------------------------------------------------------

function findMember(obj, name) {
  for (const candidate of [name, camelCase(name)]) {
    if (obj !== null && obj !== undefined && candidate in Object(obj)) return candidate;
  }
  return null;
}

export function callMember(obj, name, args, kwargs) {
  const found = findMember(obj, name);
  if (found === null || typeof obj[found] !== "function") {
    throw new WireError(-32601, `${obj?.[HANDLE_TYPE] ?? obj?.constructor?.name ?? "object"} has no method ${name}`);
  }
  const fn = obj[found];
  const hasKwargs = kwargs && Object.keys(kwargs).length > 0;
  const positional = fn[Symbol.for("synapse.wire.positional")];
  if (positional !== undefined) {
    const padded = [...args];
    while (padded.length < positional) padded.push(undefined);
    return fn.call(obj, ...padded, kwargs ?? {});
  }
  return hasKwargs ? fn.call(obj, ...args, kwargs) : fn.call(obj, ...args);
}

export function getMember(obj, name) {
  const found = findMember(obj, name);
  if (found === null) {
    throw new WireError(-32601, `${obj?.[HANDLE_TYPE] ?? obj?.constructor?.name ?? "object"} has no property ${name}`);
  }
  return obj[found];
}

/**
 * Declare that `fn` takes `count` positional parameters and then always one keyword object (padded with
 * undefined when the kit passed fewer positional arguments).
 */
export function positional(count, fn) {
  fn[Symbol.for("synapse.wire.positional")] = count;
  return fn;
}

// --------------------------------------------------------------------------------------------------------
// Logging
// --------------------------------------------------------------------------------------------------------

let current = null;
const pendingLogs = [];

/** A logger on `name` (a dotted name starting with `synapse`); records go to the kit as `log` notifications. */
export function getLogger(name) {
  const emit = (level) => (message, error, data) => {
    if (current === null) pendingLogs.push([level, name, message, error, data]);
    else current.log(level, name, message, error, data);
  };
  return {
    name,
    debug: emit("debug"),
    info: emit("info"),
    warning: emit("warning"),
    warn: emit("warning"),
    error: emit("error"),
  };
}

// --------------------------------------------------------------------------------------------------------
// serve()
// --------------------------------------------------------------------------------------------------------

function runtime() {
  if (typeof globalThis.Bun !== "undefined") return `bun ${globalThis.Bun.version}`;
  return `node ${process.versions.node}`;
}

/**
 * Serve the protocol on stdin/stdout until stdin ends or `shutdown` arrives.
 *
 * options: {name, version, language?, capabilities, settings? ("live"|"build"), factories, properties?,
 *           onConfigure?(env), onReset?()}
 */
export function serve(options) {
  const {
    name,
    version,
    language = runtime(),
    capabilities = [],
    settings = "live",
    factories = {},
    properties = {},
    onConfigure,
    onReset,
    input = process.stdin,
    output = 1,
    syncFd = process.env.SYNAPSE_WIRE_SYNC_FD ? Number(process.env.SYNAPSE_WIRE_SYNC_FD) : null,
    exit = (code) => process.exit(code),
  } = options;

  try {
    process.on("SIGXFSZ", () => {});
  } catch {
    // a runtime without the signal: writes past RLIMIT_FSIZE then fail as they do anyway
  }

  const conn = new Connection({ output, syncFd });
  current = conn;
  for (const [level, logger, message, error, data] of pendingLogs.splice(0)) conn.log(level, logger, message, error, data);

  const impl = handle({}, "Implementation");
  for (const [key, value] of Object.entries(factories)) {
    impl[key] = value;
  }
  const staticProps = { name, version, capabilities: new Set(capabilities), ...properties };
  conn.setRoot(impl);

  conn.methods.set("hello", () => ({
    name,
    version,
    language,
    protocolVersion: PROTOCOL_VERSION,
    capabilities: [...capabilities],
    pid: process.pid,
    syncChannel: syncFd === null ? "stdin" : "fd",
    settings,
  }));
  conn.methods.set("configure", ({ env = {} }) => {
    for (const key of Object.keys(process.env)) {
      // TZ too: Node and Bun follow a change of process.env.TZ in local time at once.
      if ((key.startsWith("SYNAPSE_") && key !== "SYNAPSE_WIRE_SYNC_FD") || key === "HOME" || key === "TZ") {
        delete process.env[key];
      }
    }
    for (const [key, value] of Object.entries(env)) {
      if (value !== null && value !== undefined) process.env[key] = String(value);
    }
    return onConfigure ? (onConfigure(env) ?? null) : null;
  });
  conn.methods.set("reset", () => {
    conn.reset();
    return onReset ? (onReset() ?? null) : null;
  });
  conn.methods.set("release", ({ handles = [] }) => {
    conn.release(handles);
    return null;
  });
  conn.methods.set("shutdown", () => {
    exit(0);
    return null;
  });
  conn.methods.set("call", ({ target, method, args = [], kwargs = {} }) => {
    const obj = conn.object(target);
    const decodedArgs = args.map((a) => conn.decode(a));
    const decodedKwargs = {};
    for (const [k, v] of Object.entries(kwargs ?? {})) decodedKwargs[k] = conn.decode(v);
    if (method === null || method === undefined) {
      // A function handle called itself (a hook context's on_progress).
      if (typeof obj !== "function") throw new WireError(-32601, `handle ${target} is not a function`);
      return Object.keys(decodedKwargs).length > 0 ? obj(...decodedArgs, decodedKwargs) : obj(...decodedArgs);
    }
    if (target === 0 && !(method in factories) && !(camelCase(method) in factories)) {
      throw new WireError(-32601, `${name} has no factory ${method}`);
    }
    return callMember(obj, method, decodedArgs, decodedKwargs);
  });
  conn.methods.set("get", ({ target, name: member }) => {
    if (target === 0) {
      for (const key of [member, camelCase(member)]) {
        if (key in staticProps) return staticProps[key];
      }
      throw new WireError(-32601, `${name} has no property ${member}`);
    }
    return getMember(conn.object(target), member);
  });

  let buffered = "";
  input.setEncoding?.("utf8");
  input.on("data", (chunk) => {
    buffered += chunk;
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.trim() !== "") conn.receive(line);
      nl = buffered.indexOf("\n");
    }
  });
  input.on("end", () => exit(0));
  return conn;
}
