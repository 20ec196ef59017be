"""The turn clock: reminders, warnings and deadlines, stored and swept."""
