"""The game service: the only code that changes games (see docs/architecture.md)."""
