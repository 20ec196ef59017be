"""Notifications beside email: Apprise URLs checked before they are stored and again at each send (`safety.py`),
and the one way a notification leaves this server (`transport.py`). Knows nothing of games."""
