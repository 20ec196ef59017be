"""Playing a game: creating it, moves, computer seats, timeouts and the host's turn controls."""
