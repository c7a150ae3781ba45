"""Benchmarks (not tests): bench/run_all.py runs them all and prints one table; see docs/performance.md."""
