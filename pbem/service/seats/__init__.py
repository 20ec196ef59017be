"""A seat's own say: its settings, away time and quiet hours, fresh links, address changes, auto-pass."""
