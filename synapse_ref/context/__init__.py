"""The context layer: offloading tool results, compaction and the per-step orchestration."""
