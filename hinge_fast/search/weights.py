"""The evaluations alpha-beta can use and their fitted weights, kept apart from the
kernels (``evaluate.py``): this module has no numba kernel, so an edit here recompiles
nothing, and the engine's options read the evaluations' names from here without
loading numba.

The fitted weights ``FITTED_*`` and ``LEAF_FITTED_*`` were fitted on self-play games of
sides 6 to 9 together (``experiments/texel.py``). The default ``leaf-fitted`` plays on each
side a fit of its own, ``LEAF_FITTED_BY_SIZE``, expressed in the centi-tokens of the
sides 6-9 leaf fit (``fit --unit leaf-fitted``: its best scale on that side's positions),
so that a side's scores keep the scale the search's margins and MCTS's ``eval_scale``
were set in. ``Evaluator.weights_for(size)`` picks a side's weights and falls back on the
evaluator's own; alpha-beta copies them into its buffers at each search.

* Sides 5 to 9: ``experiments/texel.py generate --sizes S --leaves``, then ``fit --l2 1e-5
  --unit leaf-fitted``. Against the sides 6-9 fit, at 0.2 s a move, one thread each:
  +81 Elo on side 6 and +184 on side 9 (SPRT, H1 on both; docs/search-alphabeta.md,
  "Evaluation").
* Side 4: game positions, not ``--leaves`` (a depth-1 search's principal variation
  already runs to the end of the game, so its leaves have no evaluation to fit), ``fit
  --l2 1e-3 --unit fitted``; self-play results only, never the side-4 tablebase, which is
  the test set. Matches on side 4 cannot tell fits apart (the first player wins nearly
  every game), but the solved board can: on four samples of 1,000 choice-matters
  positions the side-4 fit picks a winning move in 98.8% at 1,000 nodes (97.1% with the
  sides 6-9 fit), 99.1% at 3,000 (98.3%), at every depth from 5 to 7 more often.

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

#: Each side's own fit, opening then end, in the centi-tokens of the sides 6-9 leaf fit
#: above (side 4: of the fitted evaluation), per unit of each term of
#: ``evaluate.FITTED_TERMS`` (``tempo`` last).
LEAF_FITTED_SIDE4 = (780, 466, 434, 70, 337, 1084, -717, -819, 187, 942) + (
    490, -148, -10, -153, 82, 467, -666, -228, 181, -74,
)  # fmt: skip
LEAF_FITTED_SIDE5 = (-524, 276, -182, -37, 61, 3082, -1268, 277, -53, 375) + (
    1135, -1302, 1190, -377, 759, 2207, -2006, -919, 368, 2309,
)  # fmt: skip
LEAF_FITTED_SIDE6 = (-466, 29, -1, -216, 183, 3218, -1380, 284, -48, 426) + (
    904, -868, 816, -258, 515, 2822, -2270, -819, 325, 2207,
)  # fmt: skip
LEAF_FITTED_SIDE7 = (-518, 72, -35, -122, 90, 3307, -1476, 346, -15, 413) + (
    1028, -789, 724, -420, 598, 2592, -2344, -887, 210, 2136,
)  # fmt: skip
LEAF_FITTED_SIDE8 = (-273, -135, 148, -234, 228, 2601, -1072, 117, -19, 310) + (
    365, -94, 93, 180, -45, 4976, -4018, -276, 234, 2685,
)  # fmt: skip
LEAF_FITTED_SIDE9 = (-271, -155, 140, -260, 213, 2660, -1151, 139, -12, 373) + (
    619, -74, 127, 239, -57, 4575, -3989, -421, 109, 2270,
)  # fmt: skip
#: The default ``leaf-fitted``'s weights by side.
LEAF_FITTED_BY_SIZE: dict = {
    4: LEAF_FITTED_SIDE4,
    5: LEAF_FITTED_SIDE5,
    6: LEAF_FITTED_SIDE6,
    7: LEAF_FITTED_SIDE7,
    8: LEAF_FITTED_SIDE8,
    9: LEAF_FITTED_SIDE9,
}


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
