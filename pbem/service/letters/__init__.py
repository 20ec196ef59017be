"""What a game writes to people: turn emails, digests, chat emails, the daily email and notices to the host."""
