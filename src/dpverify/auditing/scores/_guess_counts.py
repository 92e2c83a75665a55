"""Correct guesses of the one-run guess rule at many sizes: the top-k counts, ties drawn exactly.

The one-run audits (``docs/proofs/auditing.md`` §15–16) guess *in* for the ``k``
highest scores, ties broken in a uniformly random order independent of inclusion:
the stable descending sort of the scores in a seeded random order. What the f-DP audit
needs is, for each ``k`` in a set of sizes, the number of included canaries among the
``k`` highest. :func:`top_counts` draws it without ordering the canaries:

* where the ``k``-th and ``(k+1)``-th highest scores differ, the ``k`` highest are the
  scores at or above the ``k``-th, and the included ones are counted from the values
  (no randomness);
* at a tie of value ``v`` across the split they are every score above ``v`` and the
  first ``k − #{> v}`` of the ``n_v`` scores equal to ``v`` in the random order. Given
  the scores and the inclusion, a uniform order puts the ``a_v`` included ones among
  the ``n_v`` tied positions as a uniformly random ``a_v``-subset (and independently
  for different values), so the numbers of them in the runs of positions between
  consecutive splits are one multivariate hypergeometric draw (colours: the runs'
  lengths; ``a_v`` drawn) — the law of the permutation rule's counts, jointly with the
  scores and the inclusion, hence the same law of every count W and the same level
  (§16, *Ties*). Scores without ties draw nothing.

This replaced (2026-11) one ``rng.permutation(m)`` that ordered every canary, in the
f-DP audit and then in Steinke et al.'s (``_one_run.one_run_bound``): the same law,
different seeded counts on tied scores (randomized response), ~15 times less time at
m = 10^5. Scores with a few distinct values (randomized response, any
discrete score) skip the sort as well: the values and their counts give the
descending order block by block.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["FEW_VALUES", "top_counts", "correct_guesses"]

#: Most distinct values for which the descending order is built from counts (no sort).
FEW_VALUES = 8
#: Scores whose first this many hold more than FEW_VALUES values are sorted.
_PROBE = 64


def top_counts(in_scores: np.ndarray, out_scores: np.ndarray, rng: np.random.Generator,
               sizes: np.ndarray) -> tuple[np.ndarray, Callable[[int], float]]:
    """Included canaries among the ``k`` highest scores for each ``k`` in ``sizes``, ties drawn by ``rng``.

    ``scores`` are the in-scores then the out-scores. The counts have the law of those of
    the stable descending sort of the scores in a uniformly random order (the guess rule
    of §15–16), given the scores and the inclusion: exactly so where a split falls
    between two values, and at a tie by one multivariate hypergeometric draw per tied
    value (module docstring; ``docs/proofs/auditing.md`` §16, *Ties*). Returns the counts
    (an array over ``0..m``, at ``sizes`` and at ``m``) and the ``k``-th highest score as a
    function of ``k`` (1 to m).
    """
    canaries = in_scores.size + out_scores.size
    splits = np.unique(sizes[(sizes > 0) & (sizes < canaries)])
    in_top = np.zeros(canaries + 1, dtype=np.int64)
    in_top[canaries] = in_scores.size
    blocks = _value_blocks(in_scores, out_scores)
    if blocks is None:
        highest, ties = _sorted_counts(in_scores, out_scores, splits, in_top)
    else:
        highest, ties = _block_counts(blocks, splits, in_top)
    for _, higher, in_higher, where, tied, included in ties:
        # where the included ones among the `tied` equal scores fall in their uniform order:
        # how many in each run of positions between consecutive splits
        runs = np.diff(np.concatenate([[0], where - higher, [tied]]))
        drawn = rng.multivariate_hypergeometric(runs, included, method="marginals")
        in_top[where] = in_higher + np.cumsum(drawn[:-1])
    return in_top, highest


def correct_guesses(in_scores: np.ndarray, out_scores: np.ndarray, rng: np.random.Generator,
                    plus: np.ndarray, minus: np.ndarray) -> tuple[np.ndarray, Callable[[int], float]]:
    """Correct guesses of each pair ``(k+, k−)``: "in" for the k+ highest scores, "out" for the
    k− lowest (:func:`top_counts`, ties drawn by ``rng``), and the k-th highest score as a
    function of k. Included among the k+ highest plus excluded among the k− lowest, that is
    ``I(k+) + k− − (I(m) − I(m − k−))`` with ``I(k)`` the included among the k highest."""
    canaries = in_scores.size + out_scores.size
    in_top, highest = top_counts(in_scores, out_scores, rng, np.concatenate([plus, canaries - minus]))
    return in_top[plus] + minus - (in_top[canaries] - in_top[canaries - minus]), highest


#: A tie across splits: (value, scores above it, included scores above it, the splits inside
#: it, scores equal to it, included scores equal to it).
Tie = tuple[float, int, int, np.ndarray, int, int]


def _value_blocks(in_scores: np.ndarray, out_scores: np.ndarray):
    """``(values descending, counts, included counts)`` when the scores take at most
    :data:`FEW_VALUES` values (and their zeros one sign: the sort's order of 0.0 and −0.0
    is not the blocks'); else None."""
    values = np.unique(np.concatenate([in_scores[:_PROBE], out_scores[:_PROBE]]))[::-1]
    if values.size > FEW_VALUES:
        return None
    in_counts = np.array([np.count_nonzero(in_scores == value) for value in values], dtype=np.int64)
    counts = in_counts + [np.count_nonzero(out_scores == value) for value in values]
    if int(counts.sum()) != in_scores.size + out_scores.size:
        return None
    zeros = np.flatnonzero(values == 0)
    if zeros.size:
        # +0.0 is the float whose bits are all 0: the rest of the zeros are -0.0
        positive = sum(np.count_nonzero(side.view(np.int64) == 0) for side in (in_scores, out_scores))
        if 0 < positive < counts[zeros[0]]:
            return None
        values = values.copy()
        values[zeros[0]] = 0.0 if positive else -0.0
    return values, counts, in_counts


def _block_counts(blocks, splits: np.ndarray, in_top: np.ndarray):
    """Counts at the splits from the value blocks; the ties are splits strictly inside a block."""
    values, counts, in_counts = blocks
    ends, in_ends = np.cumsum(counts), np.cumsum(in_counts)
    block = np.searchsorted(ends, splits, side="left")  # the block of the k-th highest score
    inside = splits < ends[block]
    in_top[splits[~inside]] = in_ends[block[~inside]]
    ties = [(float(values[b]), int(ends[b] - counts[b]), int(in_ends[b] - in_counts[b]),
             splits[inside & (block == b)], int(counts[b]), int(in_counts[b]))
            for b in np.unique(block[inside])]
    return (lambda k: float(values[np.searchsorted(ends, k, side="left")])), ties


def _sorted_counts(in_scores: np.ndarray, out_scores: np.ndarray, splits: np.ndarray,
                   in_top: np.ndarray):
    """Counts at the splits from the sorted scores and the sorted included scores."""
    ascending = np.concatenate([in_scores, out_scores])
    ascending.sort()  # in place: one array of m scores
    in_ascending = np.sort(in_scores)
    descending = ascending[::-1]
    kth, after = descending[splits - 1], descending[splits]  # nonincreasing in the split
    in_top[splits] = in_scores.size - np.searchsorted(in_ascending, kth, side="left")
    tied = np.flatnonzero(kth == after)
    ties = []
    for value in np.unique(kth[tied])[::-1]:  # drawn from the highest tie down, as the blocks
        below, up_to = np.searchsorted(ascending, value, "left"), np.searchsorted(ascending, value, "right")
        in_below, in_up_to = (np.searchsorted(in_ascending, value, "left"),
                              np.searchsorted(in_ascending, value, "right"))
        ties.append((float(value), int(ascending.size - up_to), int(in_scores.size - in_up_to),
                     splits[tied[kth[tied] == value]], int(up_to - below), int(in_up_to - in_below)))
    return (lambda k: float(descending[k - 1])), ties
