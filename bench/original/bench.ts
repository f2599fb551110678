// Times one benchmark case on the original TypeScript Synapse Agent, loaded from a checkout at run time
// (nothing of it lives in this repository).  Started by `python -m bench.original` once per case and size,
// with bun:
//
//   bun bench/original/bench.ts SPEC.json time|first|answer
//
// SPEC.json (written by bench/original/__init__.py from the generators of bench/data.py and the settings
// of bench/cases.py) names the case, the checkout, the scratch directory, the repetition policy and the
// case's inputs.  Each case does what the case of the same name in bench/cases.py does, with the
// original's classes: the same inputs, the same untimed preparation, the same timed call.
//
// Modes: `time` prints the repetitions' times and the peak RSS as one JSON line; `first` times one run
// from before the original is loaded (the start-up case, one process per repetition); `answer` runs the
// operation once and prints a digest of its result, which the driver compares with ours.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Operation = () => unknown;

interface Runner {
  iteration(): Promise<Operation>;
}

interface Spec {
  case: string;
  n: number;
  src: string;
  work_dir: string;
  reps: { warmup: number; min: number; max: number; budget: number };
  inputs: Any;
}

const [specPath, mode] = process.argv.slice(2);
if (!specPath || !['time', 'first', 'answer'].includes(mode ?? '')) {
  process.stderr.write('usage: bun bench.ts SPEC.json time|first|answer\n');
  process.exit(2);
}
const spec: Spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
// The start-up case is timed from here: before any module of the original is loaded.
const started = performance.now();
const cpuStarted = process.cpuUsage();

const SRC = path.resolve(spec.src);
if (!fs.existsSync(path.join(SRC, 'src', 'core'))) {
  process.stderr.write(`bench.ts: ${SRC} is not a checkout of Synapse-Agent (no src/core)\n`);
  process.exit(2);
}

function load(rel: string): Promise<Any> {
  return import(path.join(SRC, 'src', rel));
}

function freshDir(name: string): string {
  const dir = path.join(spec.work_dir, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The same operation every repetition. */
function fixed(operation: Operation): Runner {
  return { iteration: async () => operation };
}

/** An untimed preparation before every repetition (a fresh directory, a fresh manager). */
function fresh(prepare: () => Operation | Promise<Operation>): Runner {
  return { iteration: async () => prepare() };
}

async function reader(): Promise<Any> {
  const { ConversationReader } = await load('skills/generator/conversation-reader.ts');
  return new ConversationReader();
}

async function managerFactory(inputs: Any): Promise<() => Any> {
  const { OffloadStorage } = await load('core/context/offload-storage.ts');
  const { ContextManager } = await load('core/context/context-manager.ts');
  return () =>
    new ContextManager(new OffloadStorage(freshDir('session')), {
      offloadThreshold: inputs.threshold,
      scanRatio: inputs.scan_ratio,
      minChars: inputs.min_chars,
    });
}

async function sessionFactory(inputs: Any): Promise<() => Promise<Any>> {
  const { Session } = await load('core/session/session.ts');
  return () => Session.create({ sessionsDir: freshDir('sessions'), sessionId: inputs.session_id });
}

const CASES: Record<string, (inputs: Any) => Promise<Runner>> = {
  async tail_read(inputs) {
    const r = await reader();
    return fixed(() => r.readTruncated(inputs.path, inputs.max_chars));
  },
  async read(inputs) {
    const r = await reader();
    return fixed(() => r.read(inputs.path));
  },
  async compact(inputs) {
    const r = await reader();
    const turns = r.read(inputs.path);
    return fixed(() => r.compact(turns));
  },
  async summarize(inputs) {
    const r = await reader();
    const turns = r.read(inputs.path);
    return fixed(() => r.summarize(turns));
  },
  async offload_if_needed(inputs) {
    const manager = await managerFactory(inputs);
    return fresh(() => {
      const m = manager();
      return () => m.offloadIfNeeded(inputs.messages);
    });
  },
  async offload_if_needed_warm(inputs) {
    const m = (await managerFactory(inputs))();
    const history: Any[] = inputs.messages;
    m.offloadIfNeeded(history);
    history.push(inputs.next_message);
    return fixed(() => m.offloadIfNeeded(history));
  },
  async token_count(inputs) {
    const manager = await managerFactory(inputs);
    return fresh(() => {
      const m = manager();
      return () => m.offloadIfNeeded(inputs.messages);
    });
  },
  async first_count(inputs) {
    const m = (await managerFactory(inputs))();
    return fixed(() => m.offloadIfNeeded(inputs.messages));
  },
  async offload_saves(inputs) {
    const { OffloadStorage } = await load('core/context/offload-storage.ts');
    const contents: string[] = inputs.contents;
    return fresh(() => {
      const storage = new OffloadStorage(freshDir('session'));
      return () => contents.map((content) => storage.save(content));
    });
  },
  async sanitizer(inputs) {
    const { sanitizeToolProtocolHistory } = await load('core/session/history-sanitizer.ts');
    return fixed(() => sanitizeToolProtocolHistory(inputs.messages));
  },
  async append_one(inputs) {
    const session = await sessionFactory(inputs);
    return fresh(async () => {
      const s = await session();
      return async () => {
        for (const message of inputs.messages) await s.appendMessage(message);
      };
    });
  },
  async append_batch(inputs) {
    const session = await sessionFactory(inputs);
    return fresh(async () => {
      const s = await session();
      return () => s.appendMessage(inputs.messages);
    });
  },
  async load_history(inputs) {
    const s = await (await sessionFactory(inputs))();
    fs.copyFileSync(inputs.history_file, s.historyPath);
    return fixed(() => s.loadHistory());
  },
  async rewrite_history(inputs) {
    const s = await (await sessionFactory(inputs))();
    return fixed(() => s.rewriteHistory(inputs.messages));
  },
};

/** CPU time (user + system, all threads) of this process since `since`, as Python's process_time(). */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

async function once(operation: Operation): Promise<unknown> {
  const result = operation();
  return result instanceof Promise ? await result : result;
}

// -- peak RSS: the high-water mark since the end of the case's setup (as bench/worker.py reads it) -------

function statusKb(field: string): number | null {
  try {
    const line = fs
      .readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) : null;
  } catch {
    return null;
  }
}

function resetPeak(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function peakKb(): number {
  return statusKb('VmHWM') ?? Math.round(process.memoryUsage().rss / 1024);
}

// -- answers: what the driver compares with ours (the same digest is computed in Python) ----------------

function sha256(data: string | Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

function utf8(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function turnsAnswer(turns: Any[]): Any {
  const rows = turns.map((t) => [
    t.role,
    t.content,
    (t.toolCalls ?? []).map((c: Any) => [c.id, c.name]),
    (t.toolResults ?? []).map((r: Any) => [r.toolUseId, r.content]),
  ]);
  return {
    turns: turns.length,
    user_turns: turns.filter((t) => t.role === 'user').length,
    tool_calls: turns.reduce((n, t) => n + (t.toolCalls?.length ?? 0), 0),
    tool_results: turns.reduce((n, t) => n + (t.toolResults?.length ?? 0), 0),
    content_utf8_bytes: turns.reduce((n, t) => n + utf8(t.content), 0),
    sha256: sha256(JSON.stringify(rows)),
  };
}

function offloadAnswer(r: Any): Any {
  return {
    messages: r.messages.length,
    offloaded_count: r.offloadedCount,
    previous_tokens: r.previousTokens,
    current_tokens: r.currentTokens,
    freed_tokens: r.freedTokens,
    still_exceeds_threshold: r.stillExceedsThreshold,
  };
}

function historyFiles(): Any {
  const dir = path.join(spec.work_dir, 'sessions');
  const files: Any = {};
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.jsonl')) continue;
    const body = fs.readFileSync(path.join(dir, name));
    files[name] = { lines: body.toString('utf8').split('\n').filter((l) => l).length, bytes: body.length, sha256: sha256(body) };
  }
  return files;
}

function answer(name: string, result: Any): Any {
  switch (name) {
    case 'tail_read':
    case 'read':
      return turnsAnswer(result);
    case 'compact':
      return { utf8_bytes: utf8(result), sha256: sha256(result) };
    case 'summarize':
      return {
        total_turns: result.totalTurns,
        user_turns: result.userTurns,
        assistant_turns: result.assistantTurns,
        tool_calls: result.toolCalls,
        unique_tools: result.uniqueTools,
        estimated_tokens: result.estimatedTokens,
      };
    case 'offload_if_needed':
    case 'offload_if_needed_warm':
    case 'token_count':
    case 'first_count':
      return offloadAnswer(result);
    case 'offload_saves': {
      const paths: string[] = result;
      return {
        saved: paths.length,
        distinct: new Set(paths).size,
        json: paths.filter((p) => p.endsWith('.json')).length,
        txt: paths.filter((p) => p.endsWith('.txt')).length,
        bytes: paths.reduce((n, p) => n + fs.statSync(p).size, 0),
      };
    }
    case 'sanitizer':
      return { changed: result.changed, messages: result.sanitized.length, sha256: sha256(JSON.stringify(result.sanitized)) };
    case 'append_one':
    case 'append_batch':
    case 'rewrite_history':
      return { history_files: historyFiles() };
    case 'load_history':
      return { messages: result.length, sha256: sha256(JSON.stringify(result)) };
    default:
      throw new Error(`no answer for ${name}`);
  }
}

// -- main ------------------------------------------------------------------------------------------------

async function main(): Promise<Any> {
  const setup = CASES[spec.case];
  if (!setup) throw new Error(`unknown case ${spec.case}`);
  const base = { case: spec.case, n: spec.n };
  if (mode === 'first') {
    const runner = await setup(spec.inputs);
    await once(await runner.iteration());
    const times_s = [(performance.now() - started) / 1000];
    return { ...base, times_s, cpu_s: [cpuSeconds(cpuStarted)], warmup: 0, peak_rss_kb: peakKb(), peak_rss_since_setup: false };
  }
  const runner = await setup(spec.inputs);
  if (mode === 'answer') {
    return { ...base, answer: answer(spec.case, await once(await runner.iteration())) };
  }
  Bun.gc(true);
  const peakReset = resetPeak();
  for (let i = 0; i < spec.reps.warmup; i += 1) await once(await runner.iteration());
  const times: number[] = [];
  const cpu: number[] = [];
  while (times.length < spec.reps.max) {
    const operation = await runner.iteration();
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await once(operation);
    times.push((performance.now() - start) / 1000);
    cpu.push(cpuSeconds(cpuStart));
    const spent = times.reduce((a, b) => a + b, 0);
    if (times.length >= spec.reps.min && spent >= spec.reps.budget) break;
  }
  return { ...base, times_s: times, cpu_s: cpu, warmup: spec.reps.warmup, peak_rss_kb: peakKb(), peak_rss_since_setup: peakReset };
}

// The original may print; the driver reads the last line of stdout.
main().then(
  (result) => {
    process.stdout.write(`\n${JSON.stringify(result)}\n`);
  },
  (error) => {
    process.stderr.write(`bench.ts: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
