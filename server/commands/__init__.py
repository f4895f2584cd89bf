"""The server's commands of ``kupferkessel`` (``client/cli.py`` lists them): ``serve``
runs a dedicated server; ``admin`` acts on a running one through its admin socket;
``export`` writes a stored game's record; ``ratings`` recomputes or shows the ratings.

Each module provides ``add_arguments(parser)`` and ``run(args) -> int``. ``flags``
holds ``serve``'s flags as data and how they settle (flag > environment > config file
> default), ``configfile`` reads the config file, ``startup`` what a start logs and
what ``SIGHUP`` reloads. Nothing else in the server imports this package.
"""
