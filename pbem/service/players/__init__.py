"""A player across games: sign-in to "My games", preferences for all games, a record from finished rounds."""
