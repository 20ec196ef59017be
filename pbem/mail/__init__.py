"""The post office: the outbox (`outbox.py`), delivering it (`deliver.py`), mail coming in; see docs/architecture.md."""
