// A server of the Synapse wire protocol (synapse_spec/protocol/PROTOCOL.md) that builds the components of
// the original TypeScript Synapse Agent, loaded from the checkout named by SYNAPSE_AGENT_SRC, and serves
// them to the kit:
//
//   SYNAPSE_AGENT_SRC=/path/to/Synapse-Agent .bun-prefix/node_modules/bun/bin/bun.exe server.ts
//
// Only construction recipes and port adapters live here.  No value is normalised on its way to or from the
// original.  Every white-box shim (a private member, a process-wide singleton, a test hook of the original)
// is marked `WHITE-BOX:` and listed with its reason in README.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getLogger, handle, kw, serve } from '../wire-js/wire.mjs';
import {
  KitLLMClient,
  abortSignal,
  camelRecord,
  conversationTurn,
  kitToolDefinition,
  kitToolResult,
  logLevel,
  logRecord,
  skillImportManager,
  toolset as toolsetAdapter,
} from './ports.mjs';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Kwargs = Record<string, Any>;

// The kit starts servers without SYNAPSE_* variables: the checkout comes as an argument or in the command.
const SRC = process.argv[2] ?? process.env.SYNAPSE_AGENT_SRC;
if (!SRC || !fs.existsSync(path.join(SRC, 'src', 'core'))) {
  process.stderr.write(`synapse-agent server: SYNAPSE_AGENT_SRC must name a checkout of Synapse-Agent (got ${SRC ?? 'nothing'})\n`);
  process.exit(2);
}
const ROOT = path.join(path.resolve(SRC), 'src') + path.sep;

function originalCommit(): string {
  try {
    const head = fs.readFileSync(path.join(SRC!, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref:')) return head;
    const ref = head.slice(5).trim();
    const loose = path.join(SRC!, '.git', ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim();
    const packed = fs.readFileSync(path.join(SRC!, '.git', 'packed-refs'), 'utf8');
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return line ? line.split(' ')[0]! : 'unknown';
  } catch {
    return 'unknown';
  }
}

// The protocol owns stdout: whatever the original prints goes to stderr unless a REPL command's output is
// being captured (ReplCommands.handle).
let capture: string[] | null = null;
for (const method of ['log', 'info', 'debug', 'warn', 'error'] as const) {
  console[method] = (...args: Any[]) => {
    const text = args.map((a) => (typeof a === 'string' ? a : Bun.inspect(a))).join(' ');
    if (capture !== null && (method === 'log' || method === 'info')) capture.push(text);
    else process.stderr.write(`${text}\n`);
  };
}

// The original's own switch that keeps `loadStopHooks()` from importing its real skill-enhancement hook;
// the kit's loader registers the scenario's hooks instead (see stop_hook_executor).
process.env.BUN_TEST = '1';

// --------------------------------------------------------------------------------------------------------
// Loading the original.  It reads its SYNAPSE_* settings once, at import (settings: "build"): after a
// `configure` the next component is built from freshly loaded modules, as a freshly started process would.
// --------------------------------------------------------------------------------------------------------

let stale = true;
let lastEnv = '';
let modules: Map<string, Any> = new Map();

function freshModules(): void {
  for (const key of Object.keys(require.cache)) {
    if (key.startsWith(ROOT)) delete require.cache[key];
  }
  modules = new Map();
  stale = false;
  const fileLogger = require(`${ROOT}shared/file-logger.ts`);
  forwardLogs(fileLogger);
}

/** The original's module `rel` (under src/) as loaded for the current settings. */
function up(rel: string): Any {
  if (stale) freshModules();
  let mod = modules.get(rel);
  if (mod === undefined) {
    mod = require(`${ROOT}${rel}`);
    modules.set(rel, mod);
  }
  return mod;
}

const LEVEL_NAMES = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** Each record the original logs (at or above its own level) also goes to the kit as a `log` notification. */
function forwardLogs(fileLogger: Any): void {
  const proto = fileLogger.Logger.prototype;
  // WHITE-BOX: `Logger.log` is private; the original has no log sink to inject.
  const original = proto.log;
  proto.log = function (this: Any, level: number, message: string, data?: unknown) {
    if (level >= this.level) {
      const record = logRecord(message, data);
      const logger = getLogger(`synapse.${this.category}`);
      const method = logLevel(LEVEL_NAMES[level] ?? 'INFO');
      (logger as Any)[method](record.message, record.error, record.data);
    }
    return original.call(this, level, message, data);
  };
}

/** Send `obj` as a server object of the contract's Protocol `type` (the kit types its proxy by that name). */
function typed<T extends object>(type: string, obj: T): T {
  return handle(obj, type) as T;
}

// --------------------------------------------------------------------------------------------------------
// Collaborators the original takes from process-wide state
// --------------------------------------------------------------------------------------------------------

/**
 * Run `fn` with the kit's token counter (or the original's own, when the component was given none).
 * WHITE-BOX: the original counts tokens through a module-global counter; its test hook
 * `setTokenCounterForTesting` is the only way in.
 */
function withCounter<T>(tc: Any, counter: Any, fn: () => T): T {
  const restore = tc.setTokenCounterForTesting({
    countTokensImpl: counter ? (text: string) => counter.count_tokens(text) : null,
  });
  let result: Any;
  try {
    result = fn();
  } catch (error) {
    restore();
    throw error;
  }
  if (result && typeof result.then === 'function') return result.finally(restore);
  restore();
  return result;
}

/**
 * Run `fn` with an injected pricing table in the one place the original reads prices from,
 * `os.homedir()/.synapse/pricing.json` (fixed at import); the file is put back as it was afterwards.
 */
function withPricing<T>(pricingModule: Any, pricing: Any, fn: () => T): T {
  if (pricing === undefined || pricing === null) return fn();
  const file: string = pricingModule.DEFAULT_PRICING_PATH;
  const before = fs.existsSync(file) ? fs.readFileSync(file) : null;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(pricing));
  const restore = () => {
    if (before === null) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, before);
  };
  let result: Any;
  try {
    result = fn();
  } catch (error) {
    restore();
    throw error;
  }
  if (result && typeof result.then === 'function') return result.finally(restore);
  restore();
  return result;
}

/** WHITE-BOX: `ContextCompactor.delay(ms)` is private; the kit's sleep port takes seconds. */
function injectSleep(compactor: Any, sleep: Any): void {
  if (sleep && compactor && typeof compactor.delay === 'function') {
    compactor.delay = (ms: number) => sleep(ms / 1000);
  }
}

/** WHITE-BOX: the orchestrator builds its compactor lazily in the private `ensureContextCompactor`. */
function sleepForOrchestrator(orchestrator: Any, sleep: Any): void {
  if (!sleep) return;
  const ensure = orchestrator.ensureContextCompactor.bind(orchestrator);
  orchestrator.ensureContextCompactor = (dir: string) => {
    const compactor = ensure(dir);
    injectSleep(compactor, sleep);
    return compactor;
  };
}

// --------------------------------------------------------------------------------------------------------
// Components are built when a scenario first uses them, not when the factory is called: the kit builds some
// in fixtures, before the scenario's settings arrive, and the original reads its settings at import.  A
// component keeps the settings of its first use (the original's own behaviour for a running process).
// --------------------------------------------------------------------------------------------------------

class Lazy {
  private built: Any = undefined;
  private tokenCounterModule: Any = undefined;
  private hookRegistryModule: Any = undefined;
  constructor(private readonly build: () => Any) {}
  get inner(): Any {
    if (this.built === undefined) {
      this.built = this.build();
      // The modules of the same load as the component's own (a later `configure` loads new ones).
      this.tokenCounterModule = up('shared/token-counter.ts');
      this.hookRegistryModule = up('core/hooks/hook-registry.ts');
    }
    return this.built;
  }
  /** The original's token-counter module this component counts with. */
  get tc(): Any {
    void this.inner;
    return this.tokenCounterModule;
  }
  /** The original's process-wide stop-hook registry this component sees. */
  get globalRegistry(): Any {
    void this.inner;
    return this.hookRegistryModule.stopHookRegistry;
  }
}

// --------------------------------------------------------------------------------------------------------
// Reader
// --------------------------------------------------------------------------------------------------------

/** The original's ConversationReader; turns the kit sends back get the original's keys again. */
class ConversationReaderAdapter extends Lazy {
  read(filePath: string): Any[] {
    return this.inner.read(filePath);
  }
  read_truncated(filePath: string, maxChars: number): Any[] {
    return this.inner.readTruncated(filePath, maxChars);
  }
  compact(turns: Any[], ...rest: Any[]): string {
    return this.inner.compact(turns.map(conversationTurn), ...rest);
  }
  extract_tool_sequence(turns: Any[]): string[] {
    return this.inner.extractToolSequence(turns.map(conversationTurn));
  }
  summarize(turns: Any[]): Any {
    return this.inner.summarize(turns.map(conversationTurn));
  }
}

// --------------------------------------------------------------------------------------------------------
// Skill import: the original's SkillManager, its SkillMerger asking a SubAgentManager over the kit's model
// --------------------------------------------------------------------------------------------------------

/** Bash sessions the original's tools started and the indexers' homes; each scenario's go at reset. */
const bashTools: Any[] = [];
const importerHomes: string[] = [];

/**
 * The original's own toolset (bash_toolset) as the contract's Toolset: `handle` answers the ToolResult (the
 * original wraps it as `{toolCallId, returnValue}`) and `tools` name the schema `parameters` (the original's
 * `input_schema`).  A runner gets the original's toolset itself, cancel included.
 */
class OwnToolsetAdapter {
  constructor(readonly inner: Any) {}
  get tools(): Any[] {
    return this.inner.tools.map(kitToolDefinition);
  }
  async handle(toolCall: Any): Promise<Any> {
    return kitToolResult(await this.inner.handle(toolCall));
  }
  get_tool(name: string): Any {
    return this.inner.getTool(name) ?? null;
  }
}

/**
 * A home directory for the original's SkillIndexer whose `.synapse/skills` is the kit's skills directory.
 * WHITE-BOX: the indexer takes a home directory and reads `<home>/.synapse/skills`, while SkillManager takes
 * the skills directory itself; the original always gives both the same directory (`cli/repl-init.ts`).
 */
function indexerHome(skillsDir: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'synapse-skill-home-'));
  importerHomes.push(home);
  fs.mkdirSync(path.join(home, '.synapse'));
  fs.symlinkSync(path.resolve(skillsDir), path.join(home, '.synapse', 'skills'));
  return home;
}

/**
 * The original's SkillManager on the kit's skills directory.  Its merger asks a SubAgentManager built as the
 * original's own skill-enhancement hook builds one (`core/hooks/skill-enhance-hook.ts`): the model client
 * (here the kit's), a BashTool with the sandbox off, the sub-agent toolset factory, `generate` and the
 * preloaded AgentRunner factory.  Similarity runs the `skill` sub-agent's `search` action (no tools, one
 * iteration), a merge its `enhance` action (Bash), as in the original.
 */
class SkillImporterAdapter extends Lazy {
  async manager(): Promise<Any> {
    return this.inner;
  }
  async import_skills(source: string, kwargs: Kwargs = {}): Promise<Any> {
    const options: Kwargs = {};
    if (kwargs.continue_skills != null) options.continueSkills = [...kwargs.continue_skills];
    if (kwargs.merge_into != null) {
      options.mergeInto = [...kwargs.merge_into].map(([source, target]: Any[]) => ({ source, target }));
    }
    return (await this.manager()).import(source, options);
  }
}

function skillImporter(skillsDir: string, llm: Any): SkillImporterAdapter {
  return new SkillImporterAdapter(async () => {
    const { SkillManager } = up('skills/manager/skill-manager.ts');
    const { SkillIndexer } = up('skills/loader/indexer.ts');
    const { SkillMerger } = up('skills/manager/skill-merger.ts');
    const { SubAgentManager } = up('core/sub-agents/sub-agent-manager.ts');
    const { BashTool } = up('tools/bash-tool.ts');
    const { createSubAgentToolsetFactory } = up('tools/sub-agent-toolset-factory.ts');
    const { generate } = up('providers/generate.ts');
    const { createPreloadedAgentRunnerFactory } = up('core/hooks/agent-runner-factory.ts');
    const { loadSandboxConfig } = up('shared/sandbox/sandbox-config.ts');
    const client = new KitLLMClient(llm, kw);
    const bashTool = new BashTool({ sandboxConfig: { ...loadSandboxConfig(), enabled: false } });
    bashTools.push(bashTool);
    const subAgentManager = new SubAgentManager({
      client,
      bashTool,
      toolsetFactory: createSubAgentToolsetFactory(),
      generateFn: generate,
      agentRunnerFactory: await createPreloadedAgentRunnerFactory({ client, generateFn: generate }),
    });
    const indexer = new SkillIndexer(indexerHome(skillsDir));
    return new SkillManager(skillsDir, indexer, new SkillMerger(subAgentManager));
  });
}

// --------------------------------------------------------------------------------------------------------
// Context layer
// --------------------------------------------------------------------------------------------------------

class OffloadStorageAdapter {
  constructor(readonly inner: Any) {}
  get offloaded_dir(): string {
    return this.inner.getOffloadedDirPath();
  }
  save(content: string, ext?: string | null): string {
    return this.inner.save(content, ext ?? undefined);
  }
  list_files(): string[] {
    return this.inner.listFiles();
  }
  remove(file: string): void {
    this.inner.remove(file);
  }
}

/** The original's OffloadStorage, or the kit's storage port in its shape. */
function storageOf(storage: Any): Any {
  if (storage instanceof OffloadStorageAdapter) return storage.inner;
  return {
    getOffloadedDirPath: () => storage.offloaded_dir,
    listFiles: () => storage.list_files(),
    save: (content: string, ext?: string) => storage.save(content, ext),
    remove: (file: string) => storage.remove(file),
  };
}

class ContextManagerAdapter extends Lazy {
  constructor(
    build: () => Any,
    private readonly counter: Any,
  ) {
    super(build);
  }
  offload_if_needed(messages: Any[]): Any {
    return withCounter(this.tc, this.counter, () => this.inner.offloadIfNeeded(messages));
  }
}

class ContextCompactorAdapter extends Lazy {
  constructor(
    build: () => Any,
    private readonly counter: Any,
  ) {
    super(build);
  }
  compact(messages: Any[]): Promise<Any> {
    return withCounter(this.tc, this.counter, () => this.inner.compact(messages));
  }
  restore_offloaded_content(messages: Any[]): Promise<Any[]> {
    // WHITE-BOX: `restoreOffloadedContent` is private in the original.
    return withCounter(this.tc, this.counter, () => this.inner.restoreOffloadedContent(messages));
  }
  cleanup_offloaded_files(retained?: Any): Promise<string[]> {
    // WHITE-BOX: `cleanupOffloadedFiles` is private in the original (it takes a Set).
    const set = retained === undefined || retained === null ? undefined : new Set(retained);
    return withCounter(this.tc, this.counter, () => this.inner.cleanupOffloadedFiles(set));
  }
}

class ContextOrchestratorAdapter extends Lazy {
  constructor(
    build: () => Any,
    private readonly counter: Any,
  ) {
    super(build);
  }
  offload_if_needed(history: Any[], offloadDir: string | null): Promise<Any> {
    return withCounter(this.tc, this.counter, () => this.inner.offloadIfNeeded(history, offloadDir));
  }
  force_compact(history: Any[], offloadDir: string | null): Promise<Any> {
    return withCounter(this.tc, this.counter, () => this.inner.forceCompact(history, offloadDir));
  }
}

function offloadPortOf(manager: Any): Any {
  if (manager instanceof ContextManagerAdapter) return { offloadIfNeeded: (m: Any) => manager.offload_if_needed(m) };
  return { offloadIfNeeded: (m: Any) => camelRecord(manager.offload_if_needed(m)) };
}

function compactPortOf(compactor: Any): Any {
  if (compactor instanceof ContextCompactorAdapter) return { compact: (m: Any) => compactor.compact(m) };
  return { compact: async (m: Any) => camelRecord(await compactor.compact(m)) };
}

// --------------------------------------------------------------------------------------------------------
// Session layer
// --------------------------------------------------------------------------------------------------------

class SessionAdapter {
  constructor(
    readonly inner: Any,
    readonly sessionsDir: string,
    readonly pricing: Any,
    private readonly pricingModule: Any,
  ) {}
  get id(): string {
    return this.inner.id;
  }
  /** Not exposed by the original: the directory this session was created or found in. */
  get sessions_dir(): string {
    return this.sessionsDir;
  }
  get history_path(): string {
    return this.inner.historyPath;
  }
  get offload_dir(): string {
    return this.inner.offloadSessionDir;
  }
  get title(): string | undefined {
    return this.inner.title;
  }
  get message_count(): number {
    return this.inner.messageCount;
  }
  append_message(message: Any): Promise<void> {
    return this.inner.appendMessage(message);
  }
  load_history(): Promise<Any[]> {
    return this.inner.loadHistory();
  }
  rewrite_history(messages: Any[]): Promise<void> {
    return this.inner.rewriteHistory(messages);
  }
  clear(kwargs?: Kwargs): Promise<void> {
    if (kwargs && 'reset_usage' in kwargs) return this.inner.clear({ resetUsage: kwargs.reset_usage });
    return this.inner.clear();
  }
  delete(): Promise<void> {
    return this.inner.delete();
  }
  get_usage(): Any {
    return this.inner.getUsage();
  }
  update_usage(usage: Any, model?: string | null): Promise<void> {
    return this.priced(() => this.inner.updateUsage(usage, model ?? undefined));
  }
  priced<T>(fn: () => T): T {
    return withPricing(this.pricingModule, this.pricing, fn);
  }
}

class StopHookExecutorAdapter extends Lazy {
  private loaded = false;
  constructor(
    build: () => Any,
    readonly registry: Any,
    private readonly loader: Any,
  ) {
    super(build);
  }
  should_execute(): boolean {
    return this.inner.shouldExecute();
  }
  async init(): Promise<void> {
    await this.inner.init();
    // The kit's loader stands in for the original's `loadStopHooks()` (which imports its hook modules once,
    // and only when the executor is enabled).
    if (this.loader && !this.loaded && this.inner.shouldExecute()) {
      this.loaded = true;
      await this.loader(this.registry);
    }
  }
  execute_and_append(finalResponse: string, kwargs: Kwargs = {}): Promise<string> {
    // The original's context has no `cwd`: hooks get `process.cwd()` from the original itself.
    return this.upstreamExecute(finalResponse, { sessionId: kwargs.session_id, history: kwargs.messages });
  }
  upstreamExecute(finalResponse: string, context: Any): Promise<string> {
    // WHITE-BOX: the original's executor always runs the process-wide `stopHookRegistry`; for the call its
    // private `hooks` map is the scenario's registry's.
    const saved = this.globalRegistry.hooks;
    this.globalRegistry.hooks = this.registry.hooks;
    return Promise.resolve(this.inner.executeAndAppend(finalResponse, context)).finally(() => {
      this.globalRegistry.hooks = saved;
    });
  }
  emit_progress(message: string): Promise<void> {
    // WHITE-BOX: `emitProgress` is private in the original.
    return this.inner.emitProgress(message);
  }
}

/** What the original's AgentRunner calls on its stop-hook executor, over ours or the kit's double. */
function runnerStopHooks(stopHooks: Any): Any {
  if (stopHooks instanceof StopHookExecutorAdapter) {
    return {
      shouldExecute: () => stopHooks.should_execute(),
      init: () => stopHooks.init(),
      executeAndAppend: (fr: string, ctx: Any) => stopHooks.upstreamExecute(fr, ctx),
    };
  }
  return {
    shouldExecute: () => stopHooks.should_execute(),
    init: () => stopHooks.init(),
    executeAndAppend: (fr: string, ctx: Any) =>
      stopHooks.execute_and_append(fr, kw({ session_id: ctx.sessionId, messages: ctx.history, cwd: process.cwd() })),
  };
}

// --------------------------------------------------------------------------------------------------------
// Agent layer
// --------------------------------------------------------------------------------------------------------

class AgentRunnerAdapter extends Lazy {
  constructor(
    build: () => Any,
    private readonly counter: Any,
    private readonly session: SessionAdapter | null,
  ) {
    super(build);
  }
  private around<T>(fn: () => T): T {
    const counted = () => withCounter(this.tc, this.counter, fn);
    return this.session ? this.session.priced(counted) : counted();
  }
  get history(): Any[] {
    return this.inner.getHistory();
  }
  step(userMessage: string, kwargs: Kwargs = {}): Promise<Any> {
    return this.around(() => this.inner.step(userMessage, { signal: abortSignal(kwargs.signal) }));
  }
  run(userMessage: string, kwargs: Kwargs = {}): Promise<string> {
    return this.around(() => this.inner.run(userMessage, { signal: abortSignal(kwargs.signal) }));
  }
  force_compact(): Promise<Any> {
    return this.around(() => this.inner.forceCompact());
  }
  get_pending_sandbox_permission(): Any {
    return this.inner.getPendingSandboxPermission();
  }
  resolve_sandbox_permission(option: string): Promise<string> {
    return this.around(() => this.inner.resolveSandboxPermission(option));
  }
  on(event: string, callback: Any): void {
    this.inner.on(event, (payload: Any) => {
      callback(payload);
    });
  }
  clear_session(): Promise<void> {
    return this.around(() => this.inner.clearSession());
  }
  get_session_usage(): Any {
    return this.inner.getSessionUsage();
  }
}

/** Runs `fn` with console output captured: the REPL's commands print to the terminal. */
async function captured(fn: () => Any): Promise<[Any, string]> {
  const saved = capture;
  const lines: string[] = [];
  capture = lines;
  try {
    const result = await fn();
    return [result, lines.join('\n')];
  } finally {
    capture = saved;
  }
}

class ReplCommandsAdapter {
  constructor(
    private readonly commands: Any,
    private readonly installer: Any,
    private readonly runner: Any,
    private readonly synapseHome: string | null,
    private readonly catalog: Any,
  ) {}
  async handle(line: string): Promise<Any> {
    const rl = { closed: false, close() { this.closed = true; } };
    const savedHome = process.env.SYNAPSE_HOME;
    // The original has no parameter for its home: it reads SYNAPSE_HOME when a command runs.
    if (this.synapseHome !== null) process.env.SYNAPSE_HOME = this.synapseHome;
    const proto = this.installer.McpInstaller.prototype;
    const saved = { search: proto.search, format: proto.formatSearchResult };
    if (this.catalog) {
      // WHITE-BOX: `/tools` builds its own `McpInstaller`; the kit's catalog stands in for its listing.
      const catalog = this.catalog;
      proto.search = () => ({});
      proto.formatSearchResult = () => catalog.format_search_result();
    }
    try {
      const [handled, output] = await captured(() =>
        this.commands.handleSpecialCommand(line, rl, this.runner, { skipExit: true }),
      );
      return { handled, output, exit: rl.closed };
    } finally {
      proto.search = saved.search;
      proto.formatSearchResult = saved.format;
      if (this.synapseHome !== null) {
        if (savedHome === undefined) delete process.env.SYNAPSE_HOME;
        else process.env.SYNAPSE_HOME = savedHome;
      }
    }
  }
}

/** The runner a REPL command sees: the original's AgentRunner behind ours, or the kit's double. */
function replRunnerOf(runner: Any): Any {
  if (runner === null || runner === undefined) return null;
  if (runner instanceof AgentRunnerAdapter) return runner.inner;
  const shaped: Any = {};
  for (const name of ['force_compact', 'get_session_usage', 'clear_session']) {
    if (typeof runner[name] !== 'function') continue;
    const camel = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    shaped[camel] = async (...args: Any[]) => camelRecord(await runner[name](...args));
  }
  if (typeof runner.get_session_usage === 'function') shaped.getSessionUsage = () => runner.get_session_usage();
  return shaped;
}

// --------------------------------------------------------------------------------------------------------
// The implementation: the contract's factories
// --------------------------------------------------------------------------------------------------------

const factories = {
  conversation_reader(): Any {
    return typed('ConversationReader', new ConversationReaderAdapter(() => {
      const { ConversationReader } = up('skills/generator/conversation-reader.ts');
      return new ConversationReader();
    }));
  },

  skill_command_handler(manager: Any): Any {
    const { SkillCommandHandler } = up('tools/commands/skill-mgmt.ts');
    // As the original's bash router builds it: the manager is made on first write (`skillManagerFactory`);
    // read-only subcommands use the handler's own metadata service.
    // Our own importer (skill_importer) is the original's SkillManager; it is built on first use, so the
    // handler gets it through a forwarder of the one method the handler calls on it.
    const importer = manager instanceof SkillImporterAdapter
      ? { import: async (source: string, options: Any) => (await manager.manager()).import(source, options) }
      : skillImportManager(manager, kw);
    return typed('SkillCommandHandler', new SkillCommandHandler({ skillManagerFactory: () => importer }));
  },

  async bash_toolset(cwd: string): Promise<Any> {
    const { BashTool } = up('tools/bash-tool.ts');
    const { CallableToolset } = up('tools/toolset.ts');
    const { loadSandboxConfig } = up('shared/sandbox/sandbox-config.ts');
    // The original's tool takes no working directory: its shells start in the process's directory, as when
    // the original is started in the project.  The tool is built, and the persistent bash that runs its
    // commands started (`SandboxManager.getSandbox`, public, which spawns it synchronously when the sandbox is
    // off), with the process in `cwd` for that moment; no command goes through the shell before the
    // scenario's own, so bash numbers the scenario's first command line 1, as in a fresh original.
    const saved = process.cwd();
    let tool: Any;
    process.chdir(cwd);
    try {
      // The sandbox is off, as the original builds the sub-agents' BashTool (`core/hooks/skill-enhance-hook.ts`).
      tool = new BashTool({ sandboxConfig: { ...loadSandboxConfig(), enabled: false } });
      bashTools.push(tool);
      void tool.getSandboxManager().getSandbox(cwd);
    } finally {
      process.chdir(saved);
    }
    return typed('Toolset', new OwnToolsetAdapter(new CallableToolset([tool])));
  },

  skill_importer(skillsDir: string, llm: Any): Any {
    return typed('SkillImportManager', skillImporter(skillsDir, llm));
  },

  offload_storage(sessionDir: string): Any {
    const { OffloadStorage } = up('core/context/offload-storage.ts');
    return typed('OffloadStorage', new OffloadStorageAdapter(new OffloadStorage(sessionDir)));
  },

  context_manager(storage: Any, kwargs: Kwargs = {}): Any {
    return typed('ContextManager', new ContextManagerAdapter(() => {
      const { ContextManager } = up('core/context/context-manager.ts');
      return new ContextManager(storageOf(storage), {
        offloadThreshold: kwargs.offload_threshold,
        scanRatio: kwargs.scan_ratio,
        minChars: kwargs.min_chars,
      });
    }, kwargs.token_counter));
  },

  context_compactor(storage: Any, llm: Any, kwargs: Kwargs = {}): Any {
    return typed('ContextCompactor', new ContextCompactorAdapter(() => {
      const { ContextCompactor } = up('core/context/context-compactor.ts');
      const options: Kwargs = {};
      if (kwargs.preserve_count != null) options.preserveCount = kwargs.preserve_count;
      if (kwargs.target_tokens != null) options.targetTokens = kwargs.target_tokens;
      if (kwargs.retry_count != null) options.retryCount = kwargs.retry_count;
      if (kwargs.model != null) options.model = kwargs.model;
      const inner = new ContextCompactor(storageOf(storage), new KitLLMClient(llm, kw), undefined, options);
      injectSleep(inner, kwargs.sleep);
      return inner;
    }, kwargs.token_counter));
  },

  context_orchestrator(llm: Any, kwargs: Kwargs = {}): Any {
    return typed('ContextOrchestrator', new ContextOrchestratorAdapter(() => {
      const { ContextOrchestrator } = up('core/context/context-orchestrator.ts');
      const context: Kwargs = {};
      if (kwargs.offload_threshold != null) context.offloadThreshold = kwargs.offload_threshold;
      if (kwargs.compact_trigger_threshold != null) context.compactTriggerThreshold = kwargs.compact_trigger_threshold;
      if (kwargs.compact_cooldown_steps != null) context.compactCooldownSteps = kwargs.compact_cooldown_steps;
      const inner = new ContextOrchestrator({ client: new KitLLMClient(llm, kw), context });
      // WHITE-BOX: the original has no parameter for these collaborators; they go into its private fields.
      if (kwargs.context_manager) inner.contextManager = offloadPortOf(kwargs.context_manager);
      if (kwargs.compactor) inner.contextCompactor = compactPortOf(kwargs.compactor);
      sleepForOrchestrator(inner, kwargs.sleep);
      return inner;
    }, kwargs.token_counter));
  },

  async create_session(sessionsDir: string, kwargs: Kwargs = {}): Promise<Any> {
    const { Session } = up('core/session/session.ts');
    const options: Kwargs = { sessionsDir };
    if (kwargs.session_id != null) options.sessionId = kwargs.session_id;
    if (kwargs.model != null) options.model = kwargs.model;
    const inner = await Session.create(options);
    return typed('Session', new SessionAdapter(inner, sessionsDir, kwargs.pricing, up('shared/config/pricing.ts')));
  },

  async find_session(sessionId: string, sessionsDir: string, kwargs: Kwargs = {}): Promise<Any> {
    const { Session } = up('core/session/session.ts');
    const options: Kwargs = { sessionsDir };
    if (kwargs.model != null) options.model = kwargs.model;
    const inner = await Session.find(sessionId, options);
    return inner === null
      ? null
      : typed('Session', new SessionAdapter(inner, sessionsDir, kwargs.pricing, up('shared/config/pricing.ts')));
  },

  // The original deletes a session through its object only (`Session.delete()`); its callers reach a
  // session by id with `Session.find`, and so does this recipe. An id the index does not list is not found.
  async delete_session(sessionsDir: string, sessionId: string): Promise<boolean> {
    const { Session } = up('core/session/session.ts');
    const inner = await Session.find(sessionId, { sessionsDir });
    if (inner === null) return false;
    await inner.delete();
    return true;
  },

  list_sessions(sessionsDir: string): Promise<Any[]> {
    const { Session } = up('core/session/session.ts');
    return Session.list({ sessionsDir });
  },

  async continue_session(sessionsDir: string): Promise<Any> {
    const { Session } = up('core/session/session.ts');
    const inner = await Session.continue({ sessionsDir });
    return inner === null
      ? null
      : typed('Session', new SessionAdapter(inner, sessionsDir, undefined, up('shared/config/pricing.ts')));
  },

  create_empty_usage(model: string): Any {
    return up('core/session/session-usage.ts').createEmptySessionUsage(model);
  },

  accumulate_usage(usage: Any, roundUsage: Any, pricing?: Any): Any {
    return up('core/session/session-usage.ts').accumulateUsage(usage, roundUsage, pricing ?? null);
  },

  format_cost_output(usage: Any): string {
    return up('core/session/session-usage.ts').formatCostOutput(usage);
  },

  stop_hook_registry(): Any {
    const { StopHookRegistry } = up('core/hooks/hook-registry.ts');
    return typed('StopHookRegistry', new StopHookRegistry());
  },

  stop_hook_executor(kwargs: Kwargs = {}): Any {
    return typed('StopHookExecutor', new StopHookExecutorAdapter(
      () => {
        const { StopHookExecutor } = up('core/hooks/stop-hook.ts');
        return new StopHookExecutor({ enabled: kwargs.enabled, onMessagePart: kwargs.on_message_part ?? undefined });
      },
      kwargs.registry,
      kwargs.loader ?? null,
    ));
  },

  agent_runner(llm: Any, tools: Any, kwargs: Kwargs = {}): Any {
    const session: SessionAdapter | null = kwargs.session ?? null;
    return typed('AgentRunner', new AgentRunnerAdapter(
      () => {
        const { AgentRunner } = up('core/agent/agent-runner.ts');
        const { buildSystemPrompt } = up('core/system-prompt.ts');
        const options: Kwargs = {
          client: new KitLLMClient(llm, kw),
          systemPrompt: buildSystemPrompt({ cwd: kwargs.cwd ?? process.cwd() }),
          toolset: tools instanceof OwnToolsetAdapter ? tools.inner : toolsetAdapter(tools),
        };
        if (session !== null) options.session = session.inner;
        if (kwargs.max_iterations != null) options.maxIterations = kwargs.max_iterations;
        if (kwargs.max_consecutive_tool_failures != null) {
          options.maxConsecutiveToolFailures = kwargs.max_consecutive_tool_failures;
        }
        const inner = new AgentRunner(options);
        // WHITE-BOX: the runner builds its stop-hook executor and context orchestrator itself, in private
        // fields; the scenario's executor and sleep go there.
        if (kwargs.stop_hooks) inner.stopHookExecutor = runnerStopHooks(kwargs.stop_hooks);
        sleepForOrchestrator(inner.contextOrchestrator, kwargs.sleep);
        return inner;
      },
      kwargs.token_counter,
      session,
    ));
  },

  sanitize_tool_protocol_history(messages: Any[]): Any {
    return up('core/session/history-sanitizer.ts').sanitizeToolProtocolHistory(messages);
  },

  repl_commands(kwargs: Kwargs = {}): Any {
    return typed('ReplCommands', new ReplCommandsAdapter(
      up('cli/commands/index.ts'),
      up('tools/converters/mcp/installer.ts'),
      replRunnerOf(kwargs.runner),
      kwargs.synapse_home ?? null,
      kwargs.tool_catalog ?? null,
    ));
  },

  format_stream_text(text: string, kwargs: Kwargs = {}): string {
    const { formatStreamText } = up('cli/commands/shell-commands.ts');
    // The original asks the terminal itself (`process.stdout.isTTY`); the kit says what the terminal is.
    const saved = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: Boolean(kwargs.is_tty), configurable: true, writable: true });
    try {
      return formatStreamText(text);
    } finally {
      if (saved) Object.defineProperty(process.stdout, 'isTTY', saved);
      else delete (process.stdout as Any).isTTY;
    }
  },
};

const conn = serve({
  name: 'synapse-agent',
  version: originalCommit(),
  // Not offered: workflow (the original has no staged workflow).
  capabilities: ['reader', 'skills', 'skill-import', 'context', 'session', 'session-delete', 'usage', 'stop-hooks', 'sanitizer', 'runner', 'bash-tool', 'repl'],
  settings: 'build',
  factories,
  properties: { stop_hook_marker: up('core/hooks/hook-registry.ts').STOP_HOOK_MARKER },
  onConfigure(env: Record<string, string>) {
    // The original writes its log file below ~/.synapse/logs unless told not to; the kit reads the records
    // as `log` notifications instead, so a scenario's directories hold only what the original writes there.
    if (env.SYNAPSE_LOG_TO_FILE === undefined) process.env.SYNAPSE_LOG_TO_FILE = 'false';
    // bun reads the home directory once, at start-up (`os.homedir()` does not follow a later `$HOME`), and
    // the original computes paths from it at import: another HOME needs a process started with it.
    if (env.HOME !== undefined && env.HOME !== os.homedir()) return { restart: true };
    const key = JSON.stringify(Object.entries(env).sort());
    if (key !== lastEnv) {
      lastEnv = key;
      stale = true;
    }
    return null;
  },
  onReset() {
    up('shared/token-counter.ts').setTokenCounterForTesting({ countTokensImpl: null });
    for (const tool of bashTools.splice(0)) tool.cleanup();
    for (const home of importerHomes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
    return null;
  },
});

// Server functions the kit may call (a stop-hook context's `onProgress`): wire-js sends a JS function as a
// plain handle and cannot call one; here it goes as the protocol's callable (`{"$handle", "type":
// "callable", "call": "async"}`, called with `"method": null`).
const handleOf = conn.handleOf.bind(conn);
conn.handleOf = (obj: Any) => {
  const ref = handleOf(obj);
  if (typeof obj === 'function') return { ...ref, type: 'callable', call: 'async' };
  return ref;
};
const callMethod = conn.methods.get('call');
conn.methods.set('call', (params: Any) => {
  if (params.method === null || params.method === undefined) {
    const fn = conn.object(params.target);
    if (typeof fn !== 'function') throw new TypeError(`server object ${params.target} is not callable`);
    return fn(...(params.args ?? []).map((a: Any) => conn.decode(a)));
  }
  return callMethod(params);
});
