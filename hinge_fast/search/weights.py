"""Per-side weights of the fitted evaluations (issue 12), kept apart from the kernels.

The ``leaf-fitted`` weights of ``evaluate.py`` were fitted on self-play games of sides 6
to 9; side 4 has its own fit here (``scripts/texel.py generate --sizes 4 --leaves``, then
``fit --unit fitted``: self-play results only, never the side-4 tablebase, which is the
test set). ``Evaluator.weights_for(size)`` picks a side's weights from
``LEAF_FITTED_BY_SIZE`` and falls back on the evaluator's own; alpha-beta copies them
into its buffers at each search. This module has no numba kernel, so a new fit here
recompiles nothing.

    >>> from hinge_fast.search.evaluate import get_evaluator
    >>> leaf = get_evaluator("leaf-fitted")
    >>> bool((leaf.weights_for(4) == LEAF_FITTED_BY_SIZE[4]).all()), bool((leaf.weights_for(6) == leaf.weights).all())
    (True, True)
"""

from __future__ import annotations

#: Side 4, opening then end, in the fitted evaluation's centi-tokens per unit of each
#: term of ``evaluate.FITTED_TERMS`` (``tempo`` last).
LEAF_FITTED_SIDE4_OPENING = (780, 466, 434, 70, 337, 1084, -717, -819, 187, 942)
LEAF_FITTED_SIDE4_END = (490, -148, -10, -153, 82, 467, -666, -228, 181, -74)

#: ``leaf-fitted``'s weights by side, where they differ from its sides 6-9 fit.
LEAF_FITTED_BY_SIZE = {4: LEAF_FITTED_SIDE4_OPENING + LEAF_FITTED_SIDE4_END}
