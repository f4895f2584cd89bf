"""A table and everything at it: seats, tokens, occupants, the game it plays, from its
start to its result. Knows the store it writes through, nothing of sockets or nodes."""
