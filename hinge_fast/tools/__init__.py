"""What people do with the engine: analysis, pictures, game records, players and
matches, statistics, benchmarks. Built on ``board`` and ``search`` (and the protocol
client, for external engines)."""
