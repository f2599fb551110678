// Port adapters: the kit's ports (synapse_spec/contract.py, reached through harnesses/wire-js) given the
// shapes the original Synapse Agent expects of its collaborators.  Plain JavaScript without the original,
// so node's test runner checks them (tests/ports.test.mjs).
//
// Rule: an adapter changes shapes, never data.  A value the kit leaves out stays out (no zero-filled token
// kinds, no defaulted fields): the original must meet what the kit really sends.

/** A record field sent by the kit under its contract name, in either case (PROTOCOL.md §5: records). */
export function field(record, snake) {
  if (record === null || record === undefined) return undefined;
  if (snake in record) return record[snake];
  const camel = snake.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
  return record[camel];
}

/** A record the kit sent (either case) with the camelCase keys the original reads; values untouched. */
export function camelRecord(record) {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return record;
  const out = {};
  for (const [key, value] of Object.entries(record)) {
    out[key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase())] = value;
  }
  return out;
}

/**
 * A ConversationTurn record sent back by the kit (its contract names, `tool_calls` / `tool_results` /
 * `tool_use_id`) with the original's keys.  Only record keys are renamed: a tool call's `input` is data.
 */
export function conversationTurn(turn) {
  const out = camelRecord(turn);
  if (Array.isArray(out.toolCalls)) out.toolCalls = out.toolCalls.map(camelRecord);
  if (Array.isArray(out.toolResults)) out.toolResults = out.toolResults.map(camelRecord);
  return out;
}

// --------------------------------------------------------------------------------------------------------
// LLM: the kit's `generate -> {message, usage}` as the original's streaming LLMClient
// --------------------------------------------------------------------------------------------------------

const KIT_SIGNAL = Symbol.for("synapse.harness.kitSignal");

/**
 * The parts the original's provider stream yields for one finished message: text and thinking parts as they
 * are, and each tool call as a `tool_call` with empty input followed by a `tool_call_delta` carrying the raw
 * arguments text, so `providers/generate.ts` rebuilds `arguments` byte for byte (even when it is not JSON).
 */
export function streamParts(message) {
  const parts = [];
  for (const part of message?.content ?? []) parts.push({ ...part });
  for (const call of message?.toolCalls ?? []) {
    parts.push({ type: "tool_call", id: call.id, name: call.name, input: {} });
    if (call.arguments !== undefined && call.arguments !== "") {
      parts.push({ type: "tool_call_delta", argumentsDelta: call.arguments });
    }
  }
  return parts;
}

/** The original's `LLMStreamedMessage`: an async iterable of parts with `id` and `usage`. */
export function streamedMessage(reply) {
  const message = field(reply, "message");
  const parts = streamParts(message);
  return {
    id: message?.id ?? null,
    usage: field(reply, "usage"),
    async *[Symbol.asyncIterator]() {
      for (const part of parts) yield part;
    },
  };
}

/** The original's `LLMClient` over the kit's LLMClient port. */
export class KitLLMClient {
  constructor(port, kw, generationKwargs = {}) {
    this.port = port;
    this.kw = kw;
    this.generationKwargs = generationKwargs;
    this.providerName = "synapse-spec-kit";
    this.thinkingEffort = null;
  }

  get modelName() {
    return this.port.model_name;
  }

  async generate(systemPrompt, messages, tools, options = {}) {
    const kwargs = {};
    if (this.generationKwargs.maxTokens !== undefined) kwargs.max_tokens = this.generationKwargs.maxTokens;
    const kitSignal = options?.signal?.[KIT_SIGNAL];
    if (kitSignal !== undefined) kwargs.signal = kitSignal;
    const offered = (tools ?? []).map(kitToolDefinition);
    const reply = await this.port.generate(systemPrompt, messages, offered, this.kw(kwargs));
    return streamedMessage(reply);
  }

  withModel(model) {
    return new KitLLMClient(this.port.with_model(model), this.kw, this.generationKwargs);
  }

  withGenerationKwargs(kwargs) {
    return new KitLLMClient(this.port, this.kw, { ...this.generationKwargs, ...kwargs });
  }

  withThinking() {
    return new KitLLMClient(this.port, this.kw, this.generationKwargs);
  }
}

// --------------------------------------------------------------------------------------------------------
// Abort signal: the kit's `{aborted}` port as the DOM AbortSignal the original checks
// --------------------------------------------------------------------------------------------------------

/** How often (ms) the signal asks the kit while the original listens for its `abort` event. */
export const ABORT_POLL_MS = 50;

/**
 * The original reads `signal.aborted` (shared/abort.ts `throwIfAborted`), each read asking the kit, and it
 * also listens for the signal's `abort` event while a tool runs (`core/agent/step.ts` `guardWithAbort`).
 * The kit's signal is read, not observed, so while a listener is registered the adapter reads it every
 * ABORT_POLL_MS and dispatches `abort` once it reads true (the same reading the kit expects of a loop
 * that watches a running tool).
 */
export function abortSignal(port, pollMs = ABORT_POLL_MS) {
  if (port === null || port === undefined) return undefined;
  const listeners = new Map();
  let timer = null;
  let fired = false;
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  const signal = {
    [KIT_SIGNAL]: port,
    get aborted() {
      return port.aborted;
    },
    reason: undefined,
    onabort: null,
    addEventListener(type, listener, options) {
      if (type !== "abort" || typeof listener !== "function" || fired) return;
      listeners.set(listener, Boolean(options && typeof options === "object" && options.once));
      if (timer === null) timer = setInterval(check, pollMs);
    },
    removeEventListener(type, listener) {
      if (type !== "abort") return;
      listeners.delete(listener);
      if (listeners.size === 0) stop();
    },
    throwIfAborted() {
      if (port.aborted) {
        const error = new Error("Operation aborted");
        error.name = "AbortError";
        throw error;
      }
    },
  };
  function check() {
    if (fired || !port.aborted) return;
    fired = true;
    stop();
    const event = { type: "abort", target: signal };
    const called = [...listeners.keys()];
    for (const [listener, once] of listeners) if (once) listeners.delete(listener);
    if (typeof signal.onabort === "function") signal.onabort(event);
    for (const listener of called) listener(event);
  }
  return signal;
}

// --------------------------------------------------------------------------------------------------------
// Toolset and Bash tool
// --------------------------------------------------------------------------------------------------------

/** The kit's ToolResult record as the original's `ToolReturnValue` (fields the kit left out stay out). */
export function toolReturnValue(result) {
  const out = {};
  for (const [snake, camel] of [
    ["is_error", "isError"],
    ["output", "output"],
    ["message", "message"],
    ["brief", "brief"],
    ["extras", "extras"],
  ]) {
    const value = field(result, snake);
    if (value !== undefined) out[camel] = value;
  }
  return out;
}

/**
 * A tool definition with the original's key for its JSON schema (`input_schema`, as the Anthropic API
 * names it) under the contract's (`parameters`), or the reverse; the schema itself is untouched.
 */
export function renameSchemaKey(tool, from, to) {
  if (tool === null || typeof tool !== "object" || !(from in tool) || to in tool) return tool;
  const out = {};
  for (const [key, value] of Object.entries(tool)) out[key === from ? to : key] = value;
  return out;
}

/** The original's tool definition (`input_schema`) as the contract's (`parameters`). */
export function kitToolDefinition(tool) {
  return renameSchemaKey(tool, "input_schema", "parameters");
}

/** The contract's tool definition (`parameters`) as the original's (`input_schema`). */
export function originalToolDefinition(tool) {
  return renameSchemaKey(tool, "parameters", "input_schema");
}

/**
 * What the original's `Toolset.handle` resolves to, `{toolCallId, returnValue}`, as the contract's
 * ToolResult: the return value itself (`{isError, output, message, brief, extras}`, the contract's fields in
 * camelCase); the call id is the caller's own.
 */
export function kitToolResult(handled) {
  return handled?.returnValue;
}

/** The original's `SandboxAwareBashTool` over the kit's BashTool port. */
export function bashTool(port) {
  return {
    async call(args) {
      return toolReturnValue(await port.call(args));
    },
    async executeUnsandboxed(command, cwd) {
      const result = await port.execute_unsandboxed(command, cwd);
      return { stdout: field(result, "stdout"), stderr: field(result, "stderr"), exitCode: field(result, "exit_code") };
    },
    async allowSession(resourcePath, cwd) {
      await port.allow_session(resourcePath, cwd);
    },
    async allowPermanent(resourcePath, cwd) {
      await port.allow_permanent(resourcePath, cwd);
    },
  };
}

/** The original's `Toolset` (handle returns a cancelable promise of `{toolCallId, returnValue}`). */
export function toolset(port) {
  return {
    get tools() {
      return (port.tools ?? []).map(originalToolDefinition);
    },
    handle(toolCall) {
      const promise = Promise.resolve(port.handle(toolCall)).then((result) => ({
        toolCallId: toolCall.id,
        returnValue: toolReturnValue(result),
      }));
      promise.cancel = () => {};
      return promise;
    },
    getTool(name) {
      const tool = port.get_tool(name);
      return tool === null || tool === undefined ? undefined : bashTool(tool);
    },
  };
}

// --------------------------------------------------------------------------------------------------------
// Skill import manager
// --------------------------------------------------------------------------------------------------------

/**
 * The original's `ISkillManager.import(source, {continueSkills, mergeInto: [{source, target}]})` over the
 * kit's SkillImportManager port (`merge_into` as `(source, target)` pairs).
 */
export function skillImportManager(port, kw) {
  return {
    async import(source, options = {}) {
      const kwargs = {};
      if (options.continueSkills !== undefined) kwargs.continue_skills = options.continueSkills;
      if (options.mergeInto !== undefined) kwargs.merge_into = options.mergeInto.map((m) => [m.source, m.target]);
      return port.import_skills(source, kw(kwargs));
    },
  };
}

// --------------------------------------------------------------------------------------------------------
// Logs: the original's file logger records as the protocol's `log` notifications
// --------------------------------------------------------------------------------------------------------

const LEVELS = { TRACE: "debug", DEBUG: "debug", INFO: "info", WARN: "warning", ERROR: "error" };

/** The protocol level of one of the original's level names (`WARN` -> `warning`). */
export function logLevel(name) {
  return LEVELS[name] ?? "info";
}

/**
 * A record of the original's logger as the protocol carries it.  The original logs a message plus
 * structured data (`{path}`, `{stage, beforeCount, afterCount}`, `{error}`), written side by side into its
 * log file; the protocol's `log` (1.1) carries them side by side too: the message as it was logged, the
 * data as JSON (an `Error` as `{name, message}`; data that is not an object under `value`).  An error inside
 * the data also travels as the record's error.
 */
export function logRecord(message, data) {
  let error;
  if (data instanceof Error) error = data;
  else if (data && typeof data === "object" && data.error instanceof Error) error = data.error;
  if (data === undefined) return { message: String(message), error, data: undefined };
  let json;
  try {
    json = JSON.parse(
      JSON.stringify(data, (_key, value) =>
        value instanceof Error ? { name: value.name, message: value.message } : value,
      ) ?? "null",
    );
  } catch {
    json = String(data);
  }
  const fields = json !== null && typeof json === "object" && !Array.isArray(json) ? json : { value: json };
  return { message: String(message), error, data: fields };
}
