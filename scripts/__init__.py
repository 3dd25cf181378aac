"""Command-line scripts: each is an ``Args`` dataclass, ``main(args)`` that tests call, and ``cli()``; the library
code they run lives in ``baselines``."""
