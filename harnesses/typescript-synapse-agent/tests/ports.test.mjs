// The port adapters without the original: `node --test harnesses/typescript-synapse-agent/tests/`.
import assert from "node:assert/strict";
import test from "node:test";
import {
  KitLLMClient,
  abortSignal,
  camelRecord,
  field,
  kitToolDefinition,
  kitToolResult,
  logLevel,
  originalToolDefinition,
  logRecord,
  skillImportManager,
  streamParts,
  toolReturnValue,
  toolset,
} from "../ports.mjs";

const kw = (kwargs) => ({ kwargs });

test("a record field is read in either case", () => {
  assert.equal(field({ exit_code: 3 }, "exit_code"), 3);
  assert.equal(field({ exitCode: 3 }, "exit_code"), 3);
  assert.equal(field(null, "exit_code"), undefined);
});

test("camelRecord renames keys and keeps values as they are", () => {
  const value = { previous_tokens: 10, freedTokens: null, deleted_files: ["a"] };
  assert.deepEqual(camelRecord(value), { previousTokens: 10, freedTokens: null, deletedFiles: ["a"] });
});

test("tool calls stream as a tool_call and the raw arguments text, even when it is not JSON", () => {
  const parts = streamParts({
    role: "assistant",
    content: [{ type: "text", text: "hi" }],
    toolCalls: [
      { id: "c1", name: "Bash", arguments: '{"command":"ls"}' },
      { id: "c2", name: "Bash", arguments: "{not json" },
      { id: "c3", name: "Bash", arguments: "" },
    ],
  });
  assert.deepEqual(parts, [
    { type: "text", text: "hi" },
    { type: "tool_call", id: "c1", name: "Bash", input: {} },
    { type: "tool_call_delta", argumentsDelta: '{"command":"ls"}' },
    { type: "tool_call", id: "c2", name: "Bash", input: {} },
    { type: "tool_call_delta", argumentsDelta: "{not json" },
    { type: "tool_call", id: "c3", name: "Bash", input: {} },
  ]);
});

test("the LLM adapter passes max_tokens and the kit's own signal, and leaves usage as the kit sent it", async () => {
  const calls = [];
  const signalPort = { aborted: false };
  const port = {
    model_name: "m1",
    async generate(system, messages, tools, kwargs) {
      calls.push({ system, messages, tools, kwargs });
      return { message: { role: "assistant", content: [{ type: "text", text: "ok" }] }, usage: { output: 2 } };
    },
    with_model(model) {
      return { ...port, model_name: model };
    },
  };
  const client = new KitLLMClient(port, kw).withGenerationKwargs({ maxTokens: 9600 });
  const stream = await client.generate("sys", [], [], { signal: abortSignal(signalPort) });
  const parts = [];
  for await (const part of stream) parts.push(part);
  assert.deepEqual(parts, [{ type: "text", text: "ok" }]);
  assert.deepEqual(stream.usage, { output: 2 }, "missing token kinds are not filled in");
  assert.deepEqual(calls[0].kwargs, { kwargs: { max_tokens: 9600, signal: signalPort } });
  assert.equal(client.withModel("m2").modelName, "m2");
});

test("the abort signal asks the kit's port on every read", () => {
  const port = { aborted: false };
  const signal = abortSignal(port);
  assert.equal(signal.aborted, false);
  port.aborted = true;
  assert.equal(signal.aborted, true);
  assert.throws(() => signal.throwIfAborted(), { name: "AbortError" });
  assert.equal(abortSignal(null), undefined);
});

test("a tool result keeps only the fields the kit sent", () => {
  assert.deepEqual(toolReturnValue({ is_error: true, output: "", message: "boom" }), {
    isError: true,
    output: "",
    message: "boom",
  });
});

test("the toolset adapter answers with a cancelable {toolCallId, returnValue}", async () => {
  const port = {
    tools: [{ name: "Bash", parameters: { type: "object" } }],
    async handle(call) {
      return { isError: false, output: `ran ${call.name}`, message: "", brief: "", extras: null };
    },
    get_tool(name) {
      return name === "Bash"
        ? {
            async call(args) {
              return { is_error: false, output: args.command, message: "" };
            },
            async execute_unsandboxed(command, cwd) {
              return { stdout: command, stderr: "", exit_code: 0, cwd };
            },
          }
        : null;
    },
  };
  const set = toolset(port);
  assert.deepEqual(set.tools, [{ name: "Bash", input_schema: { type: "object" } }]);
  const pending = set.handle({ id: "c1", name: "Bash", arguments: "{}" });
  assert.equal(typeof pending.cancel, "function");
  assert.deepEqual(await pending, {
    toolCallId: "c1",
    returnValue: { isError: false, output: "ran Bash", message: "", brief: "", extras: null },
  });
  assert.equal(set.getTool("Read"), undefined);
  const bash = set.getTool("Bash");
  assert.deepEqual(await bash.executeUnsandboxed("ls", "/w"), { stdout: "ls", stderr: "", exitCode: 0 });
  assert.deepEqual(await bash.call({ command: "pwd" }), { isError: false, output: "pwd", message: "" });
});

test("tool definitions rename only the schema's key, between the original's input_schema and parameters", () => {
  const schema = { type: "object", properties: { command: { type: "string" } }, required: ["command"] };
  const original = { name: "Bash", description: "d", input_schema: schema };
  const kit = kitToolDefinition(original);
  assert.deepEqual(Object.keys(kit), ["name", "description", "parameters"]);
  assert.equal(kit.parameters, schema, "the schema itself is passed as it is");
  assert.deepEqual(originalToolDefinition(kit), original);
  assert.equal(kitToolDefinition(kit), kit, "a definition already in the contract's shape is left alone");
  const both = { name: "x", input_schema: {}, parameters: {} };
  assert.equal(kitToolDefinition(both), both, "no key is overwritten");
});

test("the original's {toolCallId, returnValue} answers as the ToolResult it wraps", () => {
  const returnValue = { isError: true, output: "", message: "m", brief: "b", extras: { failureCategory: "x" } };
  assert.equal(kitToolResult({ toolCallId: "c1", returnValue }), returnValue);
});

test("the LLM adapter offers the model the original's tools under the contract's key", async () => {
  const seen = [];
  const port = {
    model_name: "m",
    async generate(system, messages, tools) {
      seen.push(tools);
      return { message: { role: "assistant", content: [] }, usage: {} };
    },
  };
  await new KitLLMClient(port, kw).generate("s", [], [{ name: "Bash", description: "d", input_schema: { type: "object" } }]);
  assert.deepEqual(seen[0], [{ name: "Bash", description: "d", parameters: { type: "object" } }]);
});

test("the skill import manager passes merge targets as (source, target) pairs", async () => {
  const seen = [];
  const manager = skillImportManager(
    {
      import_skills(source, kwargs) {
        seen.push([source, kwargs]);
        return { imported: [] };
      },
    },
    kw,
  );
  await manager.import("/src", { continueSkills: ["a"], mergeInto: [{ source: "b", target: "c" }] });
  assert.deepEqual(seen, [["/src", { kwargs: { continue_skills: ["a"], merge_into: [["b", "c"]] } }]]);
});

test("log records carry the original's message as logged, its data beside it, and its error", () => {
  const error = new Error("boom");
  const record = logRecord("Skipping offload restore", { error, path: "/x" });
  assert.equal(record.error, error);
  assert.equal(record.message, "Skipping offload restore");
  assert.deepEqual(record.data, { error: { name: "Error", message: "boom" }, path: "/x" });
  assert.deepEqual(logRecord("plain"), { message: "plain", error: undefined, data: undefined });
  assert.deepEqual(logRecord("count", 3).data, { value: 3 });
  assert.deepEqual(logRecord("failed", error).data, { name: "Error", message: "boom" });
  assert.equal(logLevel("WARN"), "warning");
  assert.equal(logLevel("ERROR"), "error");
});

test("while the original listens, the abort signal reads the kit's port and dispatches abort once", async () => {
  const port = { aborted: false };
  const signal = abortSignal(port, 5);
  const heard = [];
  signal.addEventListener("abort", (event) => heard.push(event.type), { once: true });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(heard, [], "nothing is dispatched while the kit says not aborted");
  port.aborted = true;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(heard, ["abort"]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(heard, ["abort"], "abort is dispatched once");
});

test("a removed listener stops the reading", async () => {
  let reads = 0;
  const port = {
    get aborted() {
      reads += 1;
      return false;
    },
  };
  const signal = abortSignal(port, 5);
  const listener = () => {};
  signal.addEventListener("abort", listener);
  await new Promise((resolve) => setTimeout(resolve, 20));
  signal.removeEventListener("abort", listener);
  const after = reads;
  assert.ok(after > 0, "the port is read while a listener is registered");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(reads, after, "no reading once no one listens");
});
