"""Speed and memory benchmarks of the implementation, run by ``python -m bench.suite``."""
