import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Kit } from "./kit.mjs";
import { camelCase, snakeCase } from "../wire.mjs";

const fixture = fileURLToPath(new URL("./fixture-server.mjs", import.meta.url));
const runtime = process.env.WIRE_JS_RUNTIME ?? process.execPath;
let kit;

before(async () => {
  kit = new Kit(runtime, [fixture]);
  await kit.result("hello", { protocolVersion: "1.2", kit: { name: "test", version: "0" }, spec: { version: "0" } });
});

after(async () => {
  assert.equal(await kit.close(), 0);
});

test("hello names the server, its runtime, its pid and the fd channel", async () => {
  const hello = await kit.result("hello", { protocolVersion: "1.2" });
  assert.equal(hello.name, "wire-js-fixture");
  assert.equal(hello.protocolVersion, "1.2");
  assert.deepEqual(hello.capabilities, ["reader"]);
  assert.equal(hello.pid, kit.child.pid);
  assert.equal(hello.syncChannel, "fd");
  assert.equal(hello.settings, "live");
  assert.match(hello.language, /^(node|bun) \d/);
});

test("names: snake_case and camelCase convert both ways", () => {
  assert.equal(camelCase("offload_if_needed"), "offloadIfNeeded");
  assert.equal(snakeCase("maxTokens"), "max_tokens");
});

test("a server object is a handle, the same object the same handle, methods by snake or camel name", async () => {
  const counter = await kit.call(0, "counter", [1]);
  assert.equal(counter.type, "Counter");
  assert.equal(await kit.call(counter.$handle, "add", [2]), 3);
  assert.equal(await kit.call(counter.$handle, "add_later", [4]), 7);
  assert.deepEqual(await kit.call(counter.$handle, "self"), counter);
  assert.equal(await kit.result("get", { target: counter.$handle, name: "current" }), 7);
  assert.deepEqual(await kit.call(0, "echo", [counter]), counter);
});

test("handle 0 answers its properties and refuses unknown factories with -32601", async () => {
  assert.equal(await kit.result("get", { target: 0, name: "stop_hook_marker" }), "[StopHook]");
  const response = await kit.request("call", { target: 0, method: "no_such_factory", args: [], kwargs: {} });
  assert.equal(response.error.code, -32601);
  const member = await kit.request("call", { target: 0, method: "counter", args: [0], kwargs: {} });
  const missing = await kit.request("call", { target: member.result.$handle, method: "nope", args: [] });
  assert.equal(missing.error.code, -32601);
});

test("keyword-only arguments arrive as one trailing object; none passed, none appended", async () => {
  assert.deepEqual(await kit.call(0, "echo_kwargs", [1], { reset_usage: true }), { a: 1, kwargs: { reset_usage: true } });
  assert.deepEqual(await kit.call(0, "echo_kwargs", [1]), { a: 1, kwargs: {} });
});

test("special values: floats, sets, errors and $-keyed objects have their shapes", async () => {
  const value = await kit.call(0, "special_values");
  assert.deepEqual(value, {
    nan: { $float: "NaN" },
    inf: { $float: "Infinity" },
    ninf: { $float: "-Infinity" },
    set: { $set: [1, 2] },
    error: { $error: { name: "TypeError", message: "bad" } },
    dollar: { $object: { $ref: 1 } },
    nested: [{ x: 1 }],
  });
  const back = await kit.call(0, "echo", [{ $object: { $ref: { $float: "NaN" } } }]);
  assert.deepEqual(back, { $object: { $ref: { $float: "NaN" } } });
  assert.deepEqual(await kit.call(0, "echo", [{ $set: ["a"] }]), { $set: ["a"] });
  const instant = { $datetime: "2026-03-01T07:00:00.001Z" };
  assert.deepEqual(await kit.call(0, "echo", [instant]), instant);
});

test("errors keep their name and message, sync or async", async () => {
  const sync = await kit.request("call", { target: 0, method: "fail", args: ["AbortError", "aborted by user"] });
  assert.deepEqual(sync.error, { code: -32000, message: "aborted by user", data: { name: "AbortError", message: "aborted by user" } });
  const async_ = await kit.request("call", { target: 0, method: "fail_async", args: ["out of range"] });
  assert.deepEqual(async_.error.data, { name: "RangeError", message: "out of range" });
});

test("every log of a request is sent before its response", async () => {
  const before = kit.received.length;
  assert.equal(await kit.call(0, "warn_then_return", [5]), 5);
  const after = kit.received.slice(before);
  const kinds = after.map((m) => m.method ?? "response");
  assert.deepEqual(kinds, ["log", "log", "response"]);
  assert.deepEqual(after[0].params, {
    level: "warning",
    logger: "synapse.test.fixture",
    message: "about to return 5",
    error: { name: "Error", message: "cause" },
  });
  assert.equal(after[1].params.level, "info");
});

test("a synchronous port call blocks on fd 3, by snake and camel name", async () => {
  kit.ports.set(1, ({ member, args, sync }) => {
    assert.equal(member, "count_tokens");
    assert.equal(sync, true);
    return args[0].length;
  });
  const port = { $port: 1, type: "TokenCounter", members: { count_tokens: "sync" } };
  assert.equal(await kit.call(0, "count_with", [port, "abcd"]), 8);
});

test("a property of a port is read synchronously", async () => {
  kit.ports.set(2, ({ method, member }) => {
    assert.equal(method, "port.get");
    return `model:${member}`;
  });
  const port = { $port: 2, type: "LLMClient", members: { model_name: "property", generate: "async" } };
  assert.equal(await kit.call(0, "read_property", [port]), "model:model_name");
});

test("an async port call is answered on stdin and carries keyword arguments", async () => {
  kit.ports.set(3, ({ member, args, kwargs, sync }) => {
    assert.equal(sync, false);
    return { member, args, kwargs };
  });
  const port = { $port: 3, type: "LLMClient", members: { model_name: "property", generate: "async" } };
  assert.deepEqual(await kit.call(0, "call_async_port", [port, "hi"]), {
    member: "generate",
    args: ["hi"],
    kwargs: { max_tokens: 5 },
  });
});

test("a callable port and a port's error reach the implementation", async () => {
  kit.ports.set(4, ({ member, args }) => {
    assert.equal(member, null);
    if (args[0] === "boom") {
      const error = new Error("scripted failure");
      error.name = "RuntimeError";
      throw error;
    }
    return args[0] * 2;
  });
  const fn = { $port: 4, type: "callable", call: "async" };
  assert.equal(await kit.call(0, "call_function", [fn, 21]), 42);
  const response = await kit.request("call", { target: 0, method: "call_function", args: [fn, "boom"] });
  assert.deepEqual(response.error.data, { name: "RuntimeError", message: "scripted failure" });
});

test("the same port id is the same JS object", async () => {
  const port = { $port: 5, type: "Sleep", call: "async" };
  assert.equal(await kit.call(0, "same_port", [port, port]), true);
});

test("requests nested in a synchronous callback are served on fd 3, at any depth", async () => {
  const counter = await kit.call(0, "counter", [10]);
  // The port's answer needs the server's own counter: it asks the server while the server is blocked.
  kit.ports.set(6, async ({ args, channel, kit: k }) => {
    const nested = await k.request("call", { target: counter.$handle, method: "add", args: [args[0].length] }, channel);
    if (args[0] === "deep") {
      // one level deeper: the nested request itself calls back synchronously
      const inner = await k.request("call", { target: 0, method: "count_with", args: [{ $port: 7, type: "TokenCounter", members: { count_tokens: "sync" } }, "xy"] }, channel);
      return nested.result + inner.result;
    }
    return nested.result;
  });
  kit.ports.set(7, ({ args }) => args[0].length);
  const port = { $port: 6, type: "TokenCounter", members: { count_tokens: "sync" } };
  assert.equal(await kit.call(0, "count_with", [port, "abc"]), 13 + 16);
  // each call adds 4 to the counter (16 -> 20 -> 24) and counts "xy" twice through port 7
  assert.equal(await kit.call(0, "count_with", [port, "deep"]), (20 + 4) + (24 + 4));
});

test("an async member cannot be awaited inside a synchronous callback: a clear error, no hang", async () => {
  const counter = await kit.call(0, "counter", [0]);
  let nestedError;
  kit.ports.set(8, async ({ channel, kit: k }) => {
    const nested = await k.request("call", { target: counter.$handle, method: "add_later", args: [1] }, channel);
    nestedError = nested.error;
    return 1;
  });
  const port = { $port: 8, type: "TokenCounter", members: { count_tokens: "sync" } };
  assert.equal(await kit.call(0, "count_with", [port, "a"]), 2);
  assert.equal(nestedError.code, -32603);
  assert.match(nestedError.message, /async member/);
});

test("configure replaces the SYNAPSE_* settings; reset forgets handles; release drops one", async () => {
  await kit.result("configure", { env: { SYNAPSE_X: "1" } });
  const counter = await kit.call(0, "counter", [0]);
  await kit.result("release", { handles: [counter.$handle] });
  const gone = await kit.request("call", { target: counter.$handle, method: "add", args: [1] });
  assert.equal(gone.error.code, -32602);
  const again = await kit.call(0, "counter", [0]);
  assert.equal(await kit.result("reset", {}), null);
  const afterReset = await kit.request("call", { target: again.$handle, method: "add", args: [1] });
  assert.equal(afterReset.error.code, -32602);
});

test("a function handle is called with a null method", async () => {
  const fn = await kit.call(0, "make_adder", [2]);
  assert.equal(fn.type, "function");
  assert.equal(await kit.result("call", { target: fn.$handle, method: null, args: [40] }), 42);
});

test("a write past the file size limit fails with EFBIG and the server lives on (PROTOCOL.md §6)", async (t) => {
  try {
    execFileSync("prlimit", ["--version"], { stdio: "ignore" });
  } catch {
    t.skip("prlimit (util-linux) is not installed");
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wire-js-fsize-"));
  execFileSync("prlimit", [`--pid=${kit.child.pid}`, "--fsize=1024:"]);
  try {
    const response = await kit.request("call", { target: 0, method: "write_bytes", args: [path.join(dir, "big"), 4096] });
    assert.equal(response.error?.data?.name, "Error");
    assert.match(response.error.message, /EFBIG/);
  } finally {
    execFileSync("prlimit", [`--pid=${kit.child.pid}`, "--fsize=unlimited:"]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(await kit.call(0, "echo", [1]), 1, "the server lives on");
});

test("a wrapped plain object is a handle, and shutdown ends the process with 0", async () => {
  const other = new Kit(runtime, [fixture]);
  const wrapper = await other.call(0, "wrap", [3]);
  assert.equal(wrapper.type, "Wrapper");
  assert.equal(await other.call(wrapper.$handle, "get"), 3);
  other.notify("shutdown");
  assert.equal(await other.exited, 0);
});
