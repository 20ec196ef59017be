"""Email: composing into the outbox (`outbox.py`); delivery arrives with the mail issue."""
