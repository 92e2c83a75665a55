"""Correct guesses of the one-run guess rule at many sizes: the top-k counts, ties in a seeded order.

The one-run audits (``docs/proofs/auditing.md`` §15–16) guess *in* for the ``k``
highest scores, ties broken in a uniformly random order independent of inclusion:
the stable descending sort of the scores in a seeded random order. What they need
is, for each ``k`` in a set of sizes, the number of included canaries among the
``k`` highest. :func:`top_counts` reads it without sorting the shuffled scores:

* where the ``k``-th and ``(k+1)``-th highest scores differ, the ``k`` highest are the
  scores at or above the ``k``-th, and the included ones are counted from the values;
* at a tie of value ``v`` across the split they are every score above ``v`` and the
  first ``k − #{> v}`` scores equal to ``v`` in the shuffled order; only these reads
  need the order.

The order is that of the seeded ``shuffle`` (``rng.shuffle``) applied once to a small
integer code per canary (``2t + included`` for the ``t``-th tied value, 0 or 1
elsewhere): numpy's ``Generator.shuffle`` of a 1-d array is one Fisher–Yates pass, the
same swaps for any such array, so it leaves ``x[rng.permutation(m)]`` and ``rng`` in
the state ``rng.permutation(m)`` does — the tie order, and so every count, of the code
that shuffled the canaries' indices (a test holds numpy to this). Large temporaries
are kept few and small (1-byte codes): at m = 10^5 each fresh 8-byte array costs
page faults comparable to the counting itself.

Scores with a few distinct values (randomized response, any discrete score) skip the
sort: the values and their counts give the descending order block by block.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["FEW_VALUES", "top_counts"]

#: Most distinct values for which the descending order is built from counts (no sort).
FEW_VALUES = 8
#: Scores whose first this many hold more than FEW_VALUES values are sorted.
_PROBE = 64

Shuffle = Callable[[np.ndarray], None]


def top_counts(in_scores: np.ndarray, out_scores: np.ndarray, shuffle: Shuffle,
               sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Included canaries among the ``k`` highest scores for each ``k`` in ``sizes``, ties in ``shuffle``'s order.

    ``scores`` are the in-scores then the out-scores; ``shuffle`` puts an array of ``m``
    codes in the seeded uniform order, in place (``rng.shuffle``, called exactly once).
    The counts are those of the stable descending sort of the shuffled scores read at
    ``sizes`` (the guess rule of §15–16). Returns the counts (an array over ``0..m``,
    exact at ``sizes`` and at ``m``) and the scores in descending order.
    """
    scores = np.concatenate([in_scores, out_scores])
    canaries = scores.size
    splits = np.unique(sizes[(sizes > 0) & (sizes < canaries)])
    in_top = np.zeros(canaries + 1, dtype=np.int64)
    in_top[canaries] = in_scores.size
    blocks = _value_blocks(scores, in_scores)
    if blocks is None:
        descending, ties = _sorted_counts(scores, in_scores, splits, in_top)
    else:
        descending, ties = _block_counts(blocks, splits, in_top)
    small = len(ties) < 63  # int8 arithmetic (fast) while the codes 2·tie + 1 stay below 128
    codes = np.zeros(canaries, dtype=np.int8 if small else np.int64)
    for tie, (value, _, _, _) in enumerate(ties, start=1):
        codes += (scores == value).view(np.int8) * codes.dtype.type(2 * tie)
    codes[: in_scores.size] += 1  # the inclusion bit (read only on tied codes)
    shuffled = codes.astype(np.int64)  # 8-byte items: numpy's fastest shuffle
    shuffle(shuffled)
    if small:
        shuffled = shuffled.astype(np.int8)  # the rest reads 1-byte codes
    for tie, (_, higher, in_higher, where) in enumerate(ties, start=1):
        # the inclusion bits of the tied scores in the shuffled order, counted up to each split
        bits = np.compress((shuffled >> 1) == tie, shuffled) & 1
        in_top[where] = in_higher + np.cumsum(bits, dtype=np.int64)[where - higher - 1]
    return in_top, descending


#: A tie across splits: (value, scores above it, included scores above it, the splits inside it).
Tie = tuple[float, int, int, np.ndarray]


def _value_blocks(scores: np.ndarray, in_scores: np.ndarray):
    """``(values descending, counts, included counts)`` when the scores take at most
    :data:`FEW_VALUES` values (and their zeros one sign: the sort's order of 0.0 and −0.0
    is not the blocks'); else None."""
    values = np.unique(scores[:_PROBE])[::-1]
    if values.size > FEW_VALUES:
        return None
    masks = [scores == value for value in values]
    counts = np.array([np.count_nonzero(mask) for mask in masks], dtype=np.int64)
    if int(counts.sum()) != scores.size:
        return None
    zeros = np.flatnonzero(values == 0)
    if zeros.size:
        negative = np.count_nonzero(np.signbit(scores) & masks[int(zeros[0])])
        if 0 < negative < counts[zeros[0]]:
            return None
        values = values.copy()
        values[zeros[0]] = -0.0 if negative else 0.0
    in_counts = np.array([np.count_nonzero(mask[: in_scores.size]) for mask in masks],
                         dtype=np.int64)
    return values, counts, in_counts


def _block_counts(blocks, splits: np.ndarray, in_top: np.ndarray) -> tuple[np.ndarray, list[Tie]]:
    """Counts at the splits from the value blocks; the ties are splits strictly inside a block."""
    values, counts, in_counts = blocks
    ends, in_ends = np.cumsum(counts), np.cumsum(in_counts)
    block = np.searchsorted(ends, splits, side="left")  # the block of the k-th highest score
    inside = splits < ends[block]
    in_top[splits[~inside]] = in_ends[block[~inside]]
    ties = [(float(values[b]), int(ends[b] - counts[b]), int(in_ends[b] - in_counts[b]),
             splits[inside & (block == b)]) for b in np.unique(block[inside])]
    return np.repeat(values, counts), ties


def _sorted_counts(scores: np.ndarray, in_scores: np.ndarray, splits: np.ndarray,
                   in_top: np.ndarray) -> tuple[np.ndarray, list[Tie]]:
    """Counts at the splits from the sorted scores: a binary search of the included scores."""
    descending = np.sort(scores)[::-1]
    kth, after = descending[splits - 1], descending[splits]  # nonincreasing in the split
    in_top[splits] = _count_at_least(kth[::-1], in_scores)  # kth reversed is sorted
    tied = np.flatnonzero(kth == after)
    ties = []
    for value in np.unique(kth[tied]):
        higher = int(np.count_nonzero(scores > value))
        ties.append((float(value), higher, int(np.count_nonzero(in_scores > value)),
                     splits[tied[kth[tied] == value]]))
    return descending, ties


def _count_at_least(ascending: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For each threshold of ``ascending[::-1]``, how many ``values`` are at least it."""
    bins = ascending.size - np.searchsorted(ascending, values, side="right")
    return np.cumsum(np.bincount(bins, minlength=ascending.size + 1))[: ascending.size]
