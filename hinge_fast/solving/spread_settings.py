"""The defaults of a proof by jobs (``spread.py``), in a module of their own so that the
command line reads them without loading the prover."""

#: Plies of the master's tree below the position.
SPLIT_PLIES = 2
#: The most plies the master may keep.
MAX_SPLIT_PLIES = 4
#: Nodes of a position's first job; each later job of a position at the last ply doubles it.
JOB_NODES = 100_000
