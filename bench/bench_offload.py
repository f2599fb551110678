"""Time and memory of the per-step offload check on a long history (a script, not a test).

The original counts the whole history twice per agent step; on a 50k-message session that is seconds per
step.  The reference caches the count of each distinct message text, so a repeated check only pays for
serialising and hashing.  Run: ``python bench/bench_offload.py [--messages 50000]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from synapse_ref.context.context_manager import ContextManager
from synapse_ref.context.offload_storage import OffloadStorage
from synapse_ref.context.token_counter import count_message_tokens, default_token_counter


def build_history(count: int) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = []
    for i in range(count):
        if i % 3 == 0:
            history.append(
                {"role": "user", "content": [{"type": "text", "text": f"Please look at file {i}.py"}]}
            )
        elif i % 3 == 1:
            history.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"Reading file {i}."}],
                    "toolCalls": [{"id": f"c{i}", "name": "read", "arguments": f'{{"path": "src/{i}.py"}}'}],
                }
            )
        else:
            body = f"def handler_{i}(request):\n    return respond(request, status=200)\n" * 4
            history.append(
                {"role": "tool", "content": [{"type": "text", "text": body}], "toolCallId": f"c{i - 1}"}
            )
    return history


def timed(label: str, fn: Any) -> Any:
    start = time.perf_counter()
    result = fn()
    print(f"{label:<44} {time.perf_counter() - start:8.3f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=50_000)
    args = parser.parse_args()
    history = build_history(args.messages)
    counter = default_token_counter()
    print(f"{args.messages} messages, token counter: {type(counter).__name__}")
    with tempfile.TemporaryDirectory() as tmp:

        def fresh_manager() -> ContextManager:
            return ContextManager(
                OffloadStorage(Path(tmp) / "session"),
                offload_threshold=10**12,
                scan_ratio=0.5,
                min_chars=50,
                token_counter=counter,
            )

        manager = fresh_manager()
        first = timed("offloadIfNeeded, first call (cold cache)", lambda: manager.offload_if_needed(history))
        timed("offloadIfNeeded, repeated call (warm cache)", lambda: manager.offload_if_needed(history))
        history.append({"role": "user", "content": [{"type": "text", "text": "one more message"}]})
        timed("offloadIfNeeded, one message appended", lambda: manager.offload_if_needed(history))
        uncached = timed(
            "uncached count, whole history (warm tokenizer)", lambda: count_message_tokens(history, counter)
        )
        print(f"{'tokens counted':<44} {first.previous_tokens:>10} (uncached, one message later: {uncached})")
        tracemalloc.start()
        traced = fresh_manager()
        traced.offload_if_needed(history)
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    print(f"{'peak traced memory, cold call':<44} {peak / 2**20:8.1f} MiB")
    print(f"{'retained by the count cache':<44} {current / 2**20:8.1f} MiB")


if __name__ == "__main__":
    main()
