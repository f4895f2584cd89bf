"""The server's computer players: bot seats and stand-ins that play through the same
table interface as people, thinking in a pool of worker processes."""
