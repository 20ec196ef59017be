"""Email: composing into the outbox (`outbox.py`, `game_mail.py`), delivering it (`deliver.py`); see docs/architecture.md."""
