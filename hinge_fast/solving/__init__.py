"""Solving positions: the side-4 tablebase, proofs (spread over workers, written and checked) and puzzles."""
