// Session usage accounting: running token totals, a bounded history of recent rounds, the cost in dollars and
// the one-line `/cost` summary. Records are plain JSON objects with the original's camelCase keys, so they
// can be written to the sessions index as they are.

import { getLogger } from "../wire-js/wire.mjs";

const log = getLogger("synapse.session.usage");

const ROUND_KEYS = ["inputOther", "output", "inputCacheRead", "inputCacheCreation"];
const TOTAL_KEYS = ["totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation"];
const PRICE_KEYS = ["inputPerMillion", "outputPerMillion", "cacheReadPerMillion", "cacheWritePerMillion"];
const DEFAULT_MAX_ROUNDS_KEPT = 50;

/** `SYNAPSE_MAX_ROUNDS_KEPT`, read at each use as `parseInt` reads it (`5.9` is 5, `2 rounds` is 2);
 * what gives no positive integer means the default. */
export function maxRoundsKept(env = process.env) {
  const value = Number.parseInt(env.SYNAPSE_MAX_ROUNDS_KEPT ?? "", 10);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_MAX_ROUNDS_KEPT;
}

export function createEmptyUsage(model) {
  return {
    totalInputOther: 0,
    totalOutput: 0,
    totalCacheRead: 0,
    totalCacheCreation: 0,
    model,
    rounds: [],
    totalCost: null,
  };
}

function count(value) {
  // A token kind a provider did not report counts as 0; so does anything that is not a finite number.
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function priceOf(pricing, model) {
  if (pricing === null || pricing === undefined || typeof pricing !== "object") return null;
  if (!Object.prototype.hasOwnProperty.call(pricing, model)) return null;
  const price = pricing[model];
  if (price === null || typeof price !== "object") return null;
  return PRICE_KEYS.every((key) => typeof price[key] === "number" && Number.isFinite(price[key])) ? price : null;
}

/** The cost of one round in dollars, or null when the model has no price. */
export function roundCost(round, model, pricing) {
  const price = priceOf(pricing, model);
  if (price === null) return null;
  const dollars =
    round.inputOther * price.inputPerMillion +
    round.output * price.outputPerMillion +
    round.inputCacheRead * price.cacheReadPerMillion +
    round.inputCacheCreation * price.cacheWritePerMillion;
  return dollars / 1_000_000;
}

/** A new record: totals grow by the round, `rounds` keeps the newest rounds, the cost grows when priced. */
export function accumulateUsage(usage, roundUsage, pricing = null, env = process.env) {
  const round = Object.fromEntries(ROUND_KEYS.map((key) => [key, count(roundUsage?.[key])]));
  const totals = Object.fromEntries(
    TOTAL_KEYS.map((total, i) => [total, count(usage?.[total]) + round[ROUND_KEYS[i]]]),
  );
  const previousRounds = Array.isArray(usage?.rounds) ? usage.rounds : [];
  const rounds = [...previousRounds, round].slice(-maxRoundsKept(env));
  const model = usage?.model;
  const cost = roundCost(round, model, pricing);
  const previousCost = typeof usage?.totalCost === "number" ? usage.totalCost : null;
  let totalCost = cost === null ? previousCost : (previousCost ?? 0) + cost;
  if (totalCost !== null && !Number.isFinite(totalCost)) {
    // JSON cannot hold it (JSON.stringify would write null anyway): the cost is unknown, and said so.
    log.warning(`the cost of model ${model} is no finite number (${String(totalCost)}); totalCost is null`);
    totalCost = null;
  }
  return { ...totals, model, rounds, totalCost };
}

function groupThousands(n) {
  const digits = String(Math.trunc(Math.abs(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${grouped}` : grouped;
}

/**
 * Dollars with two decimals, an exact half cent rounding up. Rounds the decimal text of the number (its
 * shortest representation), not its binary value, so 0.125 and 1.005 both round up as written.
 */
export function formatDollars(value) {
  // Beyond 1e21 a number has no fixed-point text; it is shown as JavaScript writes it (`$1e+30`).
  if (Math.abs(value) >= 1e21) return `$${value.toFixed(2)}`;
  const negative = value < 0;
  // A whole number is exact in binary: as toFixed(2), its digits (999999999999999868928, not the shortest
  // text 999999999999999900000).
  if (Number.isInteger(value)) return `${negative ? "-" : ""}$${BigInt(Math.abs(value))}.00`;
  const text = Math.abs(value).toString();
  let [whole, fraction = ""] = text.includes("e") ? Math.abs(value).toFixed(20).split(".") : text.split(".");
  fraction = fraction.padEnd(3, "0");
  let cents = BigInt(whole) * 100n + BigInt(fraction.slice(0, 2));
  if (fraction[2] >= "5") cents += 1n;
  const dollars = cents / 100n;
  const rest = String(cents % 100n).padStart(2, "0");
  return `${negative && cents > 0n ? "-" : ""}$${dollars}.${rest}`;
}

/** A total as the line shows it: a missing one counts 0; one that is not a finite number cannot be shown. */
function shown(usage, key) {
  const value = usage?.[key];
  if (value === undefined || value === null) return 0;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  log.warning(`usage ${key} is not a finite number (${String(value)}); the cost line shows N/A`);
  return null;
}

const sum = (...values) => (values.some((v) => v === null) ? null : values.reduce((a, b) => a + b, 0));
const count_ = (value) => (value === null ? "N/A" : groupThousands(value));

/** `Token: 12,345 in / 3,456 out | Cache: 9,600 read / 1,200 write (78% hit) | Cost: $0.42`. */
export function formatCostOutput(usage) {
  const inputOther = shown(usage, "totalInputOther");
  const output = shown(usage, "totalOutput");
  const cacheRead = shown(usage, "totalCacheRead");
  const cacheWrite = shown(usage, "totalCacheCreation");
  const input = sum(inputOther, cacheRead, cacheWrite);
  let hit;
  if (input === null || cacheRead === null) hit = "N/A";
  else hit = `${input > 0 ? Math.round((cacheRead / input) * 100) : 0}%`;
  const rounds = Array.isArray(usage?.rounds) ? usage.rounds : [];
  let cost;
  const totalCost = usage?.totalCost;
  if (typeof totalCost === "number" && Number.isFinite(totalCost)) cost = formatDollars(totalCost);
  else if (typeof totalCost === "number") {
    log.warning(`usage totalCost is not a finite number (${String(totalCost)}); the cost line shows N/A`);
    cost = "N/A";
  } else cost = rounds.length > 0 ? "N/A" : "$0.00";
  return (
    `Token: ${count_(input)} in / ${count_(output)} out | ` +
    `Cache: ${count_(cacheRead)} read / ${count_(cacheWrite)} write (${hit} hit) | ` +
    `Cost: ${cost}`
  );
}
