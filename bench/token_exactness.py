"""Compares the cl100k counter with tiktoken (an independent implementation, on the vocabulary
bpe-openai ships) on long texts, and times both: ``python -m bench.token_exactness [--max-mb 10]``.

Not part of the suite's table: it prints, per kind of text and length, both counts, whether they are
equal, and the counter's time (linear in the length when the ms/MB column stays flat).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from synapse_ref.context.token_counter import Cl100kTokenCounter

_MB = 1_000_000


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _mixed(n: int) -> str:
    rng = random.Random(3)
    alphabet = [
        *"abcdefghij klmnop QRST 0123 .,;:'\"!?-(){}\n\t",
        *"中文日本語한국어",
        "😀",
        "👍🏽",
        "  ",
        "\r\n",
    ]
    return "".join(rng.choice(alphabet) for _ in range(n))


KINDS: dict[str, Callable[[int], str]] = {
    "prose": _repeat("The quick brown fox jumps over the lazy dog, again and again. "),
    "tool output": _repeat("  1\tdef handler(request):\n  2\t    return respond(request, status=200)\n"),
    "CJK + emoji": _repeat("上下文压缩会把旧的工具结果写入文件。😀 "),
    "mixed random": _mixed,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--max-mb", type=float, default=10)
    args = parser.parse_args()
    import tiktoken
    from bpe_openai import registry

    spec = registry.cl100k_base()
    oracle = tiktoken.Encoding(
        "cl100k_oracle",
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
    )
    counter = Cl100kTokenCounter()
    sizes = [s for s in (0.1, 0.5, 1, 2, 5, 10, 20, 50) if s <= args.max_mb]
    print(f"{'text':<14} {'chars':>11} {'counter':>10} {'tiktoken':>10} {'equal':>6} {'ms':>8} {'ms/MB':>7}")
    all_equal = True
    for kind, make in KINDS.items():
        for size in sizes:
            text = make(int(size * _MB))
            start = time.perf_counter()
            ours = counter.count_tokens(text)
            elapsed = (time.perf_counter() - start) * 1000
            exact = len(oracle.encode_ordinary(text))
            all_equal &= ours == exact
            print(
                f"{kind:<14} {len(text):>11,} {ours:>10,} {exact:>10,} {ours == exact!s:>6} "
                f"{elapsed:>8.1f} {elapsed / size:>7.1f}"
            )
    print("all equal" if all_equal else "MISMATCH")
    return 0 if all_equal else 1


if __name__ == "__main__":
    raise SystemExit(main())
