"""Process faults against the production shape on loopback: `python -m bench.faults.run` (docs/reliability.md)."""
