// A minimal client of the protocol for the unit tests: starts a server, sends requests, answers callbacks
// through handlers the test gives, on stdin or on fd 3 as the protocol says.
import { spawn } from "node:child_process";

export class Kit {
  constructor(command, args, { env = {} } = {}) {
    this.child = spawn(command, args, {
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      env: { ...process.env, ...env, SYNAPSE_WIRE_SYNC_FD: "3" },
    });
    this.nextId = 1;
    this.waiting = new Map();
    this.logs = [];
    this.received = [];
    this.ports = new Map(); // port id -> (member, args, kwargs, sync) => result (may throw)
    this.stderr = "";
    this.child.stderr.on("data", (d) => (this.stderr += d));
    let buffered = "";
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        this.onMessage(JSON.parse(line));
      }
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  onMessage(message) {
    this.received.push(message);
    if (message.method === "log") {
      this.logs.push(message.params);
      return;
    }
    if (message.method === "port.call" || message.method === "port.get") {
      void this.answer(message);
      return;
    }
    const waiter = this.waiting.get(message.id);
    if (waiter) {
      this.waiting.delete(message.id);
      waiter(message);
    }
  }

  async answer(message) {
    const { port, member, args, kwargs, sync } = message.params;
    const channel = sync ? this.child.stdio[3] : this.child.stdin;
    let reply;
    try {
      const handler = this.ports.get(port);
      const result = await handler({ method: message.method, member, args, kwargs, sync, channel, kit: this });
      reply = { jsonrpc: "2.0", id: message.id, result: result ?? null };
    } catch (error) {
      reply = {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32000, message: error.message, data: { name: error.name, message: error.message } },
      };
    }
    channel.write(`${JSON.stringify(reply)}\n`);
  }

  /** Send a request on `channel` (stdin by default) and wait for its response. */
  request(method, params, channel = this.child.stdin) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      channel.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  async result(method, params) {
    const response = await this.request(method, params);
    if (response.error) {
      const error = new Error(response.error.message);
      error.name = response.error.data?.name ?? "Error";
      error.code = response.error.code;
      throw error;
    }
    return response.result;
  }

  call(target, method, args = [], kwargs = {}) {
    return this.result("call", { target, method, args, kwargs });
  }

  notify(method, params) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  close() {
    this.child.stdin.end();
    return this.exited;
  }
}
