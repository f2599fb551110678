// A small server used by the unit tests: one factory per protocol feature the tests exercise.
import fs from "node:fs";
import { serve, getLogger, handle, kw } from "../wire.mjs";

const log = getLogger("synapse.test.fixture");

class Counter {
  constructor(start) {
    this.value = start;
  }
  get current() {
    return this.value;
  }
  add(n) {
    this.value += n;
    return this.value;
  }
  async addLater(n) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.value += n;
    return this.value;
  }
  self() {
    return this;
  }
}

serve({
  name: "wire-js-fixture",
  version: "0.0.1",
  capabilities: ["reader"],
  properties: { stop_hook_marker: "[StopHook]" },
  factories: {
    counter: (start) => new Counter(start),
    echo: (value) => value,
    echo_kwargs: (a, kwargs = {}) => ({ a, kwargs }),
    special_values: () => ({
      nan: NaN,
      inf: Infinity,
      ninf: -Infinity,
      set: new Set([1, 2]),
      error: new TypeError("bad"),
      dollar: { $ref: 1 },
      nested: [{ x: 1 }],
    }),
    fail: (name, message) => {
      const error = new Error(message);
      error.name = name;
      throw error;
    },
    fail_async: async (message) => {
      throw new RangeError(message);
    },
    warn_then_return: (value) => {
      log.warning(`about to return ${value}`, new Error("cause"));
      log.info("info too");
      return value;
    },
    count_with: (counter, text) => counter.count_tokens(text) + counter.countTokens(text),
    read_property: (port) => port.model_name,
    call_async_port: async (port, text) => port.generate(text, kw({ max_tokens: 5 })),
    call_function: async (fn, arg) => fn(arg),
    same_port: (a, b) => a === b,
    make_adder: (n) => (m) => n + m,
    write_bytes: (path, n) => fs.writeFileSync(path, Buffer.alloc(n)),
    wrap: (value) => handle({ value, get: () => value }, "Wrapper"),
  },
});
