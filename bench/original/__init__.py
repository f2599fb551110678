"""Times the original TypeScript Synapse Agent on the benchmark's own inputs (``python -m bench.original``).

The original is loaded from a checkout at run time (``--src``, prepared by
``harnesses/typescript-synapse-agent/setup.sh``); nothing of it is in this repository.  For every case
the original has (``ORIGINAL_CASES``) the inputs are written with the generators of ``bench.data`` and the
settings of ``bench.cases``, then ``bench/original/bench.ts`` runs the original's classes on them under
bun, one process per case and size, with the suite's repetition policy.  Before timing, each case runs
once at its quick size on both sides, in the same scratch path, and the digests of the answers are
compared; the report (``reports/bench-original.json``) keeps both digests and says where they differ.
``python -m bench.suite --original reports/bench-original.json`` then prints the ratio against these
figures.
"""
