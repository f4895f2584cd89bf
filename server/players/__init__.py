"""Registered players (protocol 1.2): names kept by secrets, ratings, history.

``names`` compares names as people read them; ``credentials`` keeps secrets as slow
hashes and issues device codes; ``ratings`` rates rated games with openskill;
``service`` (``Players``) is the registry the sessions ask, kept in the store;
``account`` is one connection's player and the handlers of the 1.2 messages.
"""
