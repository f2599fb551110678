// A Synapse wire server written from scratch in JavaScript for one area: session usage accounting.
// Run by the kit: pytest features/ --synapse-server="node harnesses/javascript-minimal/server.mjs"
import { serve } from "../wire-js/wire.mjs";
import { accumulateUsage, createEmptyUsage, formatCostOutput } from "./usage.mjs";

serve({
  name: "javascript-minimal",
  version: "0.1.0",
  capabilities: ["usage"],
  settings: "live",
  factories: {
    create_empty_usage: (model) => createEmptyUsage(model),
    accumulate_usage: (usage, roundUsage, pricing) => accumulateUsage(usage, roundUsage, pricing ?? null),
    format_cost_output: (usage) => formatCostOutput(usage),
  },
});
