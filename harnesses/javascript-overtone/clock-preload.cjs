'use strict';
// WHITE-BOX: preloaded (`node --require`) into the original's on-stop.js hook process. The original reads the
// wall clock with `new Date()`; the spec tells time through an injected clock. The server reads the clock
// before starting the hook and passes the instants in SYNAPSE_OVERTONE_CLOCK_TICKS (a JSON array of epoch
// milliseconds); each `new Date()` without arguments takes the next one. `Date.now()` is left alone: the
// original uses it only for temporary file names and a retry deadline.
const raw = process.env.SYNAPSE_OVERTONE_CLOCK_TICKS;
delete process.env.SYNAPSE_OVERTONE_CLOCK_TICKS;
if (raw) {
  const ticks = JSON.parse(raw);
  const step = ticks.length > 1 ? ticks[ticks.length - 1] - ticks[ticks.length - 2] : 0;
  let next = 0;
  const RealDate = Date;
  const instant = () => {
    const value = next < ticks.length ? ticks[next] : ticks[ticks.length - 1] + step * (next - ticks.length + 1);
    next += 1;
    return value;
  };
  class ClockDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(instant());
      else super(...args);
    }
  }
  globalThis.Date = ClockDate;
}
