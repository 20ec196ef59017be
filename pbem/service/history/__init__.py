"""A game's history and proofs: the chronicle, replays, recaps, sealed deals, the archive."""
