"""What people do with the engine, built on ``board`` and ``search`` (and the protocol
client, for external engines):

* ``game``: the one game loop (``play_game``) of matches, ``stats``, ``play`` and the web app;
* ``players``: random, greedy, searcher and external-engine players;
* ``match``: matches with Elo and SPRT; ``stats``: self-play statistics;
* ``positions``: seeded random positions for tests, benchmarks and scripts;
* ``analysis``, ``svg``, ``record``: analysis, pictures, game records;
* ``benchmark``, ``warmup``: speed figures, compiling every kernel ahead of use.
"""
