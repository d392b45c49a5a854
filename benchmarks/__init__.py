"""Performance benchmarks with ratios to the physical floor (``make bench``; results in RESULTS.md).

Benchmarks are not tests: nothing here asserts a time. tests/test_bench_smoke.py
runs every code path once on tiny sizes so that this package cannot rot.
"""
