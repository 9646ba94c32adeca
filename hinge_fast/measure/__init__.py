"""Measuring and readying the engine: speed figures, perft and random playouts over workers, every kernel compiled ahead."""
