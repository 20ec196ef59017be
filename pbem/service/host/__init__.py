"""The host: signing in, the game list and form, invitations, and moderating a table."""
