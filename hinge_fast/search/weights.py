"""The evaluations alpha-beta can use and their fitted weights, kept apart from the
kernels (``evaluate.py``): this module has no numba kernel, so an edit here recompiles
nothing, and the engine's options read the evaluations' names from here without
loading numba.

The fitted weights (``FITTED_*``, ``LEAF_FITTED_*``) were fitted on self-play games of
sides 6 to 9 (``experiments/texel.py``). Side 4 has its own fit of the leaf model
(``experiments/texel.py generate --sizes 4``, then ``fit --unit fitted``; self-play results
only, never the side-4 tablebase, which is the test set; game positions, not
``--leaves``: on side 4 a depth-1 search's principal variation already runs to the end
of the game, so its leaves have no evaluation to fit). ``Evaluator.weights_for(size)``
picks a side's weights and falls back on the evaluator's own; alpha-beta copies them
into its buffers at each search.

The default ``leaf-fitted`` takes its per-side weights from ``LEAF_FITTED_BY_SIZE``:
the side-4 fit on side 4, the sides 6-9 fit elsewhere. Matches on side 4 cannot tell the
two fits apart (the first player wins nearly every game), but the solved board can: on
four samples of 1,000 choice-matters positions the side-4 fit picks a winning move in
98.8% at 1,000 nodes (97.1% with the sides 6-9 fit), 99.1% at 3,000 (98.3%), at every
depth from 5 to 7 more often than the sides 6-9 fit (docs/search-alphabeta.md).

    >>> from hinge_fast.search.evaluate import get_evaluator
    >>> leaf = get_evaluator("leaf-fitted")
    >>> bool((leaf.weights_for(4) == LEAF_FITTED_SIDE4).all())
    True
    >>> [kind.name for kind in EVALUATORS]
    ['classic', 'material', 'fitted', 'leaf-fitted']
"""

from __future__ import annotations

from typing import NamedTuple

#: Fitted weights, opening then end (``experiments/texel.py``: a logistic fit of the game
#: results of self-play on sides 6-9), in centi-tokens per unit of each term of
#: ``evaluate.FITTED_TERMS``; a position with a fraction ``phase`` of its interior cells
#: filled weighs each term by ``opening * (1 - phase) + end * phase``.
FITTED_OPENING = (-616, -193, 121, -12, -51, 1175, -333, 538, -21, 1)
FITTED_END = (942, -224, 405, -252, 386, 3375, -2763, -837, 244, 482)

#: The same model fitted at the search's leaves (``leaf-fitted``): each position of the
#: self-play games replaced by the leaf of its depth-1 search's principal variation (the
#: root move and the quiescence's flips), where the search applies the evaluation.
LEAF_FITTED_OPENING = (-355, -80, 47, -81, 10, 2567, -1165, 239, -61, 487)
LEAF_FITTED_END = (821, -500, 559, -255, 432, 2322, -2120, -839, 358, 739)

#: Side 4, opening then end, in the fitted evaluation's centi-tokens per unit of each
#: term of ``evaluate.FITTED_TERMS`` (``tempo`` last).
LEAF_FITTED_SIDE4_OPENING = (780, 466, 434, 70, 337, 1084, -717, -819, 187, 942)
LEAF_FITTED_SIDE4_END = (490, -148, -10, -153, 82, 467, -666, -228, 181, -74)
LEAF_FITTED_SIDE4 = LEAF_FITTED_SIDE4_OPENING + LEAF_FITTED_SIDE4_END

#: The default ``leaf-fitted``'s weights by side, where they differ from its sides 6-9 fit.
LEAF_FITTED_BY_SIZE: dict = {4: LEAF_FITTED_SIDE4}


class EvaluatorKind(NamedTuple):
    """An evaluation alpha-beta can use: its name (the ``evaluator`` option), the
    branch of ``evaluate.leaf_evaluation`` it takes (0 classic, 1 material, 2 fitted),
    what it is, and the fitted weights (with those of particular sides)."""

    name: str
    kernel_id: int
    description: str
    weights: tuple | None = None
    by_size: dict | None = None


#: Every evaluation, the one place that names them (``evaluate.EVALUATOR_BY_NAME``
#: makes an ``Evaluator`` of each; the ``evaluator`` option offers their names).
EVALUATORS = (
    EvaluatorKind("classic", 0, "the weighted terms above"),
    EvaluatorKind("material", 1, "token difference only"),
    EvaluatorKind(
        "fitted",
        2,
        "the terms above plus tempo, weights fitted to self-play results and blended by phase",
        FITTED_OPENING + FITTED_END,
    ),
    EvaluatorKind(
        "leaf-fitted",
        2,
        "the fitted evaluation's model fitted at the leaves of depth-1 "
        "searches; per-side weights from search/weights.py if any",
        LEAF_FITTED_OPENING + LEAF_FITTED_END,
        LEAF_FITTED_BY_SIZE,
    ),
)
