"""The shuffler's release ``(Z, U)`` of a batch of M_LDP reports (Garcelon et al. 2022, Alg. 1 step 2), two ways.

A user's report (Alg. 2, :class:`~dpverify.mechanisms.encoding.LocalPrivatizer`)
encodes the ``E = d + d(d+1)/2`` values ``ỹ_j = r x_j/(2L) + ½`` and
``z̃_ij = x_i x_j/(2L²) + ½`` (``j <= i``) in ``m`` unary bits each and passes
every bit through binary randomized response ``R_p``. The shuffler releases
only the per-entry sums over the batch's l users and m bits: ``Z`` (the d
entries of ``ỹ``) and the lower triangle of ``U`` (mirrored; the permutation
does not change sums). Here the release is the vector of the
E sums, ordered ``ỹ_0 … ỹ_{d−1}`` then ``np.tril_indices(d)``.

* **per-user path** (:func:`per_user_counts` + sum): every user's bits are
  drawn by ``LocalPrivatizer.simulate`` and shuffled by
  :class:`~dpverify.mechanisms.protocols.Shuffler` — the auditable path;
* **exact-law fast path** (:func:`encoded_ones` + :func:`randomize_totals`):
  given the encoded bits, the sum of an entry's randomized bits is
  ``Bin(ones, 1 − p/2) + Bin(m l − ones, p/2)`` (each kept one stays 1 with
  probability 1 − p/2, each zero becomes 1 with probability p/2,
  independently), and the number of encoded ones of a user's entry is the
  randomized rounding of ``m v`` (Alg. 2 step 2). Same law, O(E) binomials
  per batch instead of ``l m E`` bits (tests/bandits/contextual/test_contextual_reports.py).

:func:`debias` is Alg. 1 step 3: ``count/(m(1 − p)) − users/(2(1 − p))`` on every
entry, off-diagonal ones included (Alg. 1 writes the scalar ``l/(2(1 − p))``), an unbiased estimate of
``Σ r x/(2L)`` and ``Σ x xᵀ/(2L²)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_positive_int, check_probability, value_error
from dpverify.bandits.contextual.parameters import number_of_bits
from dpverify.mechanisms.encoding import LocalPrivatizer, randomized_rounding
from dpverify.mechanisms.protocols import Shuffler

__all__ = [
    "entry_count",
    "encoded_values",
    "encoded_ones",
    "randomize_totals",
    "per_user_counts",
    "shuffler_release",
    "debias",
]


@renamed_parameters(d="dimension")
def entry_count(dimension: int) -> int:
    """``E = d + d(d+1)/2`` released sums (``d(d+3)/2``), d = ``dimension``.

    >>> entry_count(5)
    20
    """
    return number_of_bits(1, dimension)


def encoded_values(privatizer: LocalPrivatizer, contexts: Any, rewards: Any) -> NDArray[np.float64]:
    """The E values ``(ỹ, lower triangle of z̃)`` of every user: shape ``(n, E)``."""
    y, z = privatizer.encoded_values(contexts, rewards)
    rows, cols = np.tril_indices(privatizer.dimension)
    return np.concatenate([y, z[..., rows, cols]], axis=-1)


def encoded_ones(privatizer: LocalPrivatizer, contexts: Any, rewards: Any, *,
                 rng: np.random.Generator) -> NDArray[np.int64]:
    """Number of ones of every user's m-bit unary code of every entry (Alg. 2 steps 2–3): ``(n, E)``."""
    return np.asarray(randomized_rounding(encoded_values(privatizer, contexts, rewards),
                                          precision=privatizer.bits, rng=rng))


@renamed_parameters(p="randomization_probability")
def randomize_totals(ones: Any, users: Any, *, bits: int, randomization_probability: float,
                     rng: np.random.Generator) -> NDArray[np.int64]:
    """Exact law of the released sums given the encoded ones: ``Bin(ones, 1 − p/2) + Bin(m·users − ones, p/2)``.

    ``ones`` has shape ``(..., E)`` (encoded ones summed over a batch's users),
    ``users`` broadcasts against its leading axes; m = ``bits`` per entry and
    p = ``randomization_probability`` (each bit is replaced by a fair coin w.p. p).

    >>> rng = np.random.default_rng(0)
    >>> randomize_totals([[3, 0]], 3, bits=1, randomization_probability=0.0, rng=rng).tolist()
    [[3, 0]]
    """
    ones = np.asarray(ones, dtype=np.int64)
    bits = check_positive_int(bits, "bits")
    p = check_probability(randomization_probability, "randomization_probability")
    totals = bits * np.asarray(users, dtype=np.int64)[..., None] if np.ndim(users) else \
        bits * check_positive_int(users, "users")
    zeros = totals - ones
    if np.any(zeros < 0) or np.any(ones < 0):
        raise value_error("ones", "<array>", "between 0 and bits * users in every entry")
    return rng.binomial(ones, 1 - p / 2) + rng.binomial(zeros, p / 2)


def per_user_counts(privatizer: LocalPrivatizer, contexts: Any, rewards: Any, *,
                    rng: np.random.Generator) -> NDArray[np.int64]:
    """Every user's M_LDP report (Alg. 2, all ``m d(d+3)/2`` bits drawn), summed over its m bits: ``(n, E)``."""
    b, w = privatizer.simulate(contexts, rewards, rng=rng)
    rows, cols = np.tril_indices(privatizer.dimension)
    return np.concatenate([b.sum(axis=-1), w[..., rows, cols, :].sum(axis=-1)], axis=-1)


def shuffler_release(privatizer: LocalPrivatizer, contexts: Any, rewards: Any, *,
                     rng: np.random.Generator, per_user: bool = True) -> NDArray[np.int64]:
    """One shuffler batch's release: the E sums of the batch's l reports (shape ``(E,)``).

    ``per_user=True``: each user's report is drawn, the reports are shuffled
    (:class:`~dpverify.mechanisms.protocols.Shuffler`) and summed;
    ``False``: the sums are drawn from their exact law (:func:`randomize_totals`).

    >>> mech = LocalPrivatizer(dimension=2, bits=2, local_epsilon=1.0, context_bound=1.0)
    >>> x, r = np.full((4, 2), 0.5), np.ones(4)
    >>> release = shuffler_release(mech, x, r, rng=np.random.default_rng(0))
    >>> release.shape, bool(((0 <= release) & (release <= 2 * 4)).all())
    ((5,), True)
    """
    if per_user:
        reports = per_user_counts(privatizer, contexts, rewards, rng=rng)
        return Shuffler().shuffle(reports, rng=rng).sum(axis=0)
    ones = encoded_ones(privatizer, contexts, rewards, rng=rng).sum(axis=0)
    users = int(np.shape(contexts)[0])
    return randomize_totals(ones, users, bits=privatizer.bits,
                            randomization_probability=privatizer.randomization_probability, rng=rng)


@renamed_parameters(d="dimension", p="randomization_probability")
def debias(counts: Any, users: Any, *, dimension: int, bits: int,
           randomization_probability: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Alg. 1 step 3: ``count/(m(1−p)) − users/(2(1−p))`` on every entry → ``(Ũ, Z̃)``.

    Returns the symmetric ``(..., d, d)`` estimate of ``Σ x xᵀ/(2L²)`` and the
    ``(..., d)`` estimate of ``Σ r x/(2L)`` (each unbiased, since
    ``E[count] = m(users p/2 + (1 − p) Σ v)``); d = ``dimension``, m = ``bits``,
    p = ``randomization_probability``.

    >>> gram, vector = debias([[4, 3]], 2, dimension=1, bits=2, randomization_probability=0.0)
    >>> gram.tolist(), vector.tolist()
    ([[[0.5]]], [[1.0]])
    """
    counts = np.asarray(counts, dtype=float)
    d = check_positive_int(dimension, "dimension")
    p = check_probability(randomization_probability, "randomization_probability", open_high=True)
    users = np.asarray(users, dtype=float)
    if counts.shape[-1] != entry_count(d):
        raise value_error("counts", "<array>", f"with last axis of length d(d+3)/2 = {entry_count(d)}")
    scaled = counts / (bits * (1 - p)) - (users[..., None] if users.ndim else users) / (2 * (1 - p))
    vector = scaled[..., :d]
    rows, cols = np.tril_indices(d)
    gram = np.zeros(scaled.shape[:-1] + (d, d))
    gram[..., rows, cols] = scaled[..., d:]
    gram[..., cols, rows] = scaled[..., d:]
    return gram, vector
