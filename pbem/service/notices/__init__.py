"""Notifications beside email, the service's side: what each event says (`words.py`), queued in the transaction of
the change (`queue.py`), sent by the scheduler's worker (`sender.py`), and the addresses and channels people set
(`addresses.py`). docs/notifications.md tells what each event sends."""
