// A Synapse wire server that builds the staged workflow (seed 002) from the ORIGINAL Overtone code, loaded at
// run time from OVERTONE_SRC (a checkout of github.com/ryu111/overtone; see setup.sh). Nothing of the original is
// copied here: this file holds construction recipes and port adapters only, and passes data through as the
// original produces it. Every shim that reaches into the original's internals or its environment is marked
// WHITE-BOX and listed in README.md.
//
//   OVERTONE_SRC=/path/to/overtone node harnesses/javascript-overtone/server.mjs

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { handle, serve } from "../wire-js/wire.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLOCK_PRELOAD = path.join(HERE, "clock-preload.cjs");
const COMMIT = "6b673e1eb524574229d6c06239cf99da8cec0075";
// Instants read from the kit's clock before each run of the hook process (the hook stamps at most a handful).
const HOOK_CLOCK_TICKS = 16;

function pluginDir() {
  const src = process.env.OVERTONE_SRC;
  if (!src) throw new Error("OVERTONE_SRC is not set: point it at a checkout of ryu111/overtone (see setup.sh)");
  const dir = path.join(path.resolve(src), "plugins", "overtone");
  if (!fs.existsSync(path.join(dir, "hooks", "scripts", "agent", "on-stop.js"))) {
    throw new Error(`OVERTONE_SRC=${src} holds no plugins/overtone/hooks/scripts/agent/on-stop.js`);
  }
  return dir;
}

const require = createRequire(import.meta.url);

/** The kit's clock reading as epoch milliseconds (a `$datetime` arrives as a Date). */
function toMillis(value) {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.getTime();
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  throw new TypeError(`the workflow clock returned ${JSON.stringify(value)}, not a time`);
}

// WHITE-BOX: clock in process.
/**
 * The original stamps events and state with `new Date()`; while one of its functions runs, a
 * `new Date()` without arguments reads the injected clock instead. `Date.now()` is left alone (the original
 * uses it only for temporary file names and a retry deadline, which must not read a frozen clock).
 */
function withClock(clock, fn) {
  const RealDate = globalThis.Date;
  class ClockDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(toMillis(clock()));
      else super(...args);
    }
  }
  globalThis.Date = ClockDate;
  try {
    return fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

/**
 * The spec's setting SYNAPSE_COMPACT_THRESHOLD_MB is the original's OVERTONE_COMPACT_THRESHOLD_MB (same unit,
 * decimal megabytes, read when used). Only the name is mapped; the value goes through as text.
 */
// The environment the kit sent with its last `configure`: a variable of the original's own (CLAUDE_SESSION_ID)
// reaches the hook only when the scenario set it, never from the environment the server was started in.
let configured = {};

function originalEnv(base, home) {
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    if (key.startsWith("SYNAPSE_") || key.startsWith("OVERTONE_") || key === "CLAUDE_SESSION_ID") continue;
    env[key] = value;
  }
  if (base.SYNAPSE_COMPACT_THRESHOLD_MB !== undefined) {
    env.OVERTONE_COMPACT_THRESHOLD_MB = base.SYNAPSE_COMPACT_THRESHOLD_MB;
  }
  if (typeof configured.CLAUDE_SESSION_ID === "string") env.CLAUDE_SESSION_ID = configured.CLAUDE_SESSION_ID;
  if (home !== undefined) env.HOME = home;
  return env;
}

function withThresholdSetting(fn) {
  const saved = process.env.OVERTONE_COMPACT_THRESHOLD_MB;
  if (process.env.SYNAPSE_COMPACT_THRESHOLD_MB !== undefined) {
    process.env.OVERTONE_COMPACT_THRESHOLD_MB = process.env.SYNAPSE_COMPACT_THRESHOLD_MB;
  } else {
    delete process.env.OVERTONE_COMPACT_THRESHOLD_MB;
  }
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.OVERTONE_COMPACT_THRESHOLD_MB;
    else process.env.OVERTONE_COMPACT_THRESHOLD_MB = saved;
  }
}

// WHITE-BOX: private home with a `.overtone` link (privateHome, loadOriginal, and HOME of the hook process).
/**
 * The original keeps everything in `os.homedir()/.overtone/`, resolved once when paths.js is
 * imported. The workflow root the spec gives is reached through a private HOME whose `.overtone` is a
 * symbolic link to that root; the original's modules are loaded afresh with that HOME, so each workflow has
 * its own module instances (and its own in-process emit counter).
 */
const homes = [];

function privateHome(root) {
  fs.mkdirSync(root, { recursive: true });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "overtone-home-"));
  fs.symlinkSync(path.resolve(root), path.join(home, ".overtone"), "dir");
  homes.push(home);
  return home;
}

/** Remove the private homes (each holds the link and whatever the original wrote beside it). */
function forgetHomes() {
  for (const home of homes.splice(0)) {
    try {
      fs.unlinkSync(path.join(home, ".overtone"));
      fs.rmSync(home, { recursive: true, force: true });
    } catch (error) {
      process.stderr.write(`overtone harness: could not remove ${home}: ${error.message}\n`);
    }
  }
}

function loadOriginal(dir, home) {
  const forget = () => {
    for (const key of Object.keys(require.cache)) {
      if (key.startsWith(dir + path.sep)) delete require.cache[key];
    }
  };
  const savedHome = process.env.HOME;
  forget();
  process.env.HOME = home;
  try {
    const lib = (name) => require(path.join(dir, "scripts", "lib", name));
    return {
      paths: lib("paths.js"),
      state: lib("state.js"),
      timeline: lib("timeline.js"),
      registry: lib("registry.js"),
      // The hook file exports its helpers; its main flow runs only as a process (require.main guard).
      onStop: require(path.join(dir, "hooks", "scripts", "agent", "on-stop.js")),
    };
  } finally {
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
    forget();
  }
}

/** Run the original's SubagentStop hook as its own process, with `stdin` as its input. */
function runHook(dir, home, clock, stdin) {
  // WHITE-BOX: clock in the hook process (clock-preload.cjs takes these instants).
  const ticks = [];
  for (let i = 0; i < HOOK_CLOCK_TICKS; i += 1) ticks.push(toMillis(clock()));
  const env = originalEnv(process.env, home);
  env.SYNAPSE_OVERTONE_CLOCK_TICKS = JSON.stringify(ticks);
  const hook = path.join(dir, "hooks", "scripts", "agent", "on-stop.js");
  // WHITE-BOX: hook stdin from a file. The hook reads `readFileSync('/dev/stdin')`, which cannot open the socket node gives a child for a piped
  // stdin (ENXIO); a file is what a shell redirect would give it.
  const input = path.join(home, "hook-stdin");
  fs.writeFileSync(input, stdin, "utf8");
  const fd = fs.openSync(input, "r");
  let run;
  try {
    run = spawnSync(process.execPath, ["--require", CLOCK_PRELOAD, hook], {
      env,
      cwd: home,
      encoding: "utf8",
      stdio: [fd, "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(input, { force: true });
  }
  if (run.error) throw run.error;
  return {
    stdout: run.stdout,
    stderr: run.stderr,
    exit_code: run.status ?? (run.signal ? 128 + (os.constants.signals[run.signal] ?? 0) : -1),
  };
}

/** The contract's `staged_workflow(root, clock=…)`: the original's state, timeline, registry and hook. */
function stagedWorkflow(root, { clock } = {}) {
  if (typeof clock !== "function") throw new TypeError("staged_workflow needs a clock");
  const dir = pluginDir();
  const home = privateHome(String(root));
  const original = loadOriginal(dir, home);
  // The original's paths lead through the private home's link; the same file is named below the root.
  const linked = path.join(home, ".overtone");
  const underRoot = (file) =>
    file.startsWith(linked + path.sep) ? path.join(path.resolve(String(root)), file.slice(linked.length + 1)) : file;
  const timed = (fn) => (...args) => withClock(clock, () => fn(...args));

  const state = handle(
    {
      // Recipe: the original's init-workflow.js takes the stage list of the type from the registry.
      init: timed((sessionId, workflowType, stages) => {
        const list = stages ?? original.registry.workflows[workflowType].stages;
        return original.state.initState(sessionId, workflowType, list);
      }),
      read: timed((sessionId) => original.state.readState(sessionId)),
      set_stage: timed((sessionId, stageKey, { status, result } = {}) => {
        const update = result === undefined ? { status } : { status, result };
        return original.state.updateStage(sessionId, stageKey, update);
      }),
      path: (sessionId) => underRoot(original.paths.session.workflow(sessionId)),
    },
    "WorkflowStateStore",
  );

  const timeline = handle(
    {
      emit: timed((sessionId, eventType, data) =>
        data === undefined || data === null
          ? original.timeline.emit(sessionId, eventType)
          : original.timeline.emit(sessionId, eventType, data),
      ),
      // The contract's keyword `event_type` is the original's filter key `type`.
      query: timed((sessionId, { event_type, category, limit } = {}) => {
        const filter = {};
        if (event_type !== undefined) filter.type = event_type;
        if (category !== undefined) filter.category = category;
        if (limit !== undefined) filter.limit = limit;
        return original.timeline.query(sessionId, filter);
      }),
      latest: timed((sessionId, eventType) => original.timeline.latest(sessionId, eventType)),
      path: (sessionId) => underRoot(original.paths.session.timeline(sessionId)),
    },
    "WorkflowTimeline",
  );

  return handle(
    {
      get timeline_events() {
        return original.registry.timelineEvents;
      },
      state,
      timeline,
      // The original takes one object with its own option names at the top level
      // ({transcriptPath, sessionId, thresholdBytes, minStagesSinceCompact}); it has no `state` parameter.
      should_suggest_compact: timed(({ transcript_path, session_id, options } = {}) => {
        const args = { ...(options ?? {}) };
        if (transcript_path !== undefined) args.transcriptPath = transcript_path;
        if (session_id !== undefined) args.sessionId = session_id;
        return withThresholdSetting(() => original.onStop.shouldSuggestCompact(args));
      }),
      format_size: (size) => original.onStop.formatSize(size),
      on_stop: (event) => {
        const run = runHook(dir, home, clock, JSON.stringify(event));
        try {
          return JSON.parse(run.stdout);
        } catch {
          throw new Error(`on-stop.js exited ${run.exit_code} with stdout ${JSON.stringify(run.stdout)}: ${run.stderr}`);
        }
      },
      on_stop_command: (stdin) => runHook(dir, home, clock, stdin),
    },
    "StagedWorkflow",
  );
}

serve({
  name: "overtone",
  version: COMMIT,
  language: `node ${process.versions.node} (Overtone at ${COMMIT.slice(0, 7)})`,
  capabilities: ["workflow"],
  settings: "live",
  factories: {
    staged_workflow: stagedWorkflow,
  },
  onReset: forgetHomes,
  onConfigure: (env) => {
    configured = { ...env };
    return null;
  },
});
process.on("exit", forgetHomes);
