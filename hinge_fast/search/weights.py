"""Per-side weights of the fitted evaluations, kept apart from the kernels.

The ``leaf-fitted`` weights of ``evaluate.py`` were fitted on self-play games of sides 6
to 9. Side 4 has its own fit here (``experiments/texel.py generate --sizes 4``, then ``fit
--unit fitted``; self-play results only, never the side-4 tablebase, which is the test
set; game positions, not ``--leaves``: on side 4 a depth-1 search's principal variation
already runs to the end of the game, so its leaves have no evaluation to fit).
``Evaluator.weights_for(size)`` picks a side's weights and falls back on the
evaluator's own; alpha-beta copies them into its buffers at each search.

The default ``leaf-fitted`` takes its per-side weights from ``LEAF_FITTED_BY_SIZE``:
the side-4 fit on side 4, the sides 6-9 fit elsewhere; ``leaf-fitted-69`` keeps the
sides 6-9 fit on every side. Matches on side 4 cannot tell the two apart (the first
player wins nearly every game), but the solved board can: on four samples of 1,000
choice-matters positions the side-4 fit picks a winning move in 98.8% at 1,000 nodes
(97.1% with the sides 6-9 fit), 99.1% at 3,000 (98.3%), at every depth from 5 to 7
more often than the sides 6-9 fit (docs/search-alphabeta.md).
This module has no numba kernel, so an edit here recompiles nothing.

    >>> from hinge_fast.search.evaluate import get_evaluator
    >>> leaf, leaf69 = get_evaluator("leaf-fitted"), get_evaluator("leaf-fitted-69")
    >>> bool((leaf.weights_for(4) == LEAF_FITTED_SIDE4).all()), bool((leaf.weights_for(6) == leaf69.weights).all())
    (True, True)
"""

from __future__ import annotations

#: Side 4, opening then end, in the fitted evaluation's centi-tokens per unit of each
#: term of ``evaluate.FITTED_TERMS`` (``tempo`` last).
LEAF_FITTED_SIDE4_OPENING = (780, 466, 434, 70, 337, 1084, -717, -819, 187, 942)
LEAF_FITTED_SIDE4_END = (490, -148, -10, -153, 82, 467, -666, -228, 181, -74)
LEAF_FITTED_SIDE4 = LEAF_FITTED_SIDE4_OPENING + LEAF_FITTED_SIDE4_END

#: The default ``leaf-fitted``'s weights by side, where they differ from its sides 6-9 fit.
LEAF_FITTED_BY_SIZE: dict = {4: LEAF_FITTED_SIDE4}
