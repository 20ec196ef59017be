"""Benchmarks and fault runs: modules run from the repository root, `python -m bench.<name>` (docs/performance.md)."""
