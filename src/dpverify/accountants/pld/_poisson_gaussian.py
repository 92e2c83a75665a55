"""Both directions of the Poisson-subsampled Gaussian's PLD (add-remove) from one set of normal tails.

The remove direction is ``P = (1 − q)N(0, σ²) + qN(1, σ²)`` against ``Q = N(0, σ²)``, the
add direction the pair swapped (:class:`~dpverify.accountants.pld._losses.SubsampledGaussian`).
Each grid is built by :func:`~dpverify.accountants.pld._losses.monotone_grid` from the log
tails of N(0, σ²) and of the mixture at the output thresholds ``x(g)``, ``g(x) = l`` the
remove direction's loss. The add direction's loss at its grid point ``i h`` is ``−g`` at
``−i h``, and ``(−i) h`` is the same float as ``−(i h)``: its thresholds are the remove
direction's at the mirrored indices, bit for bit. And the mixture's tail is computed from
N(0, σ²)'s at the same threshold (:meth:`~SubsampledGaussian.mixture_log_tail`). So here the
thresholds and the tails are evaluated once, on the union of the two index ranges, and each
direction reads the ones it uses: every array entry is the same elementwise function of the
same inputs as in ``monotone_grid``, so both grids are the same bits as
``monotone_grid(remove)``, ``monotone_grid(add)`` (a test checks it), in about 60% of the time.

**Soundness.** That of ``monotone_grid`` (``docs/proofs/pld.md``, §2): the same grids.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from dpverify.accountants.pld._grid import LossGrid, connect_the_dots
from dpverify.accountants.pld._losses import (
    _U,
    SubsampledGaussian,
    _grid_indices,
    check_loss_floor,
    interval_law_from_masses,
    log_difference,
)

__all__ = ["subsampled_gaussian_grids"]


def _split(upper_half: np.ndarray) -> int:
    """The first index of the upper-tail part (:meth:`SubsampledGaussian.log_cdfs`'s ``split``)."""
    return int(np.argmax(upper_half)) if upper_half.any() else len(upper_half) - 1


def subsampled_gaussian_grids(sigma: float, q: float, step: float, tail: float) -> tuple[LossGrid, LossGrid]:
    """``(monotone_grid(remove, step, tail), monotone_grid(add, step, tail))`` for ``0 < q < 1``.

    ``sigma`` is the noise multiplier σ/Δ (already rounded down by the caller), ``q`` the
    Poisson rate. Positions below index the union of the two grids in the remove
    direction's order: position ``p`` is the loss ``(low + p) h`` of the remove direction and
    ``−(low + p) h`` of the add direction, whose grid therefore runs backwards from ``a0``.
    """
    remove = SubsampledGaussian(sigma, q)
    first_r, last_r = _grid_indices(*remove.support_hint(tail), step)
    first_a, last_a = _grid_indices(*SubsampledGaussian(sigma, q, swapped=True).support_hint(tail), step)
    low, high = min(first_r, -last_a), max(last_r, -first_a)
    r0, a0 = first_r - low, -first_a - low
    n_r, n_a = last_r - first_r + 1, last_a - first_a + 1
    losses, inside, t, dt, near = _shared_part(remove, step, low, high)
    for begin, count in ((r0, n_r), (a0 - n_a + 1, n_a)):   # the remove's grid, the add's negated
        check_loss_floor(remove.loss_floor, losses[near[(near >= begin) & (near < begin + count)]], step)
    x, dx = remove.threshold_from_ratio(t, dt)
    split_r = _split(inside[r0 : r0 + n_r] & (x[r0 : r0 + n_r] > q))
    backwards = x[a0 - n_a + 1 : a0 + 1][::-1]
    split_a = _split(~inside[a0 - n_a + 1 : a0 + 1][::-1] | (backwards < 0.0))
    # Intervals (p − 1, p]: the remove direction's k = p − r0 − 1 is a difference of lower tails
    # for k < split_r, the add direction's k = a0 − p of upper tails for k < split_a.
    lower = _hull((r0 + 1, r0 + split_r), (a0 - n_a + 2, a0 - split_a))
    upper = _hull((r0 + split_r + 1, r0 + n_r - 1), (a0 - split_a + 1, a0))
    # the tails at both ends of each interval, and at each grid's end points (its end tails)
    tails = {
        "lower": _tails(
            remove, x, dx, inside, _hull((lower[0] - 1, lower[1]), (r0, r0), (a0 - n_a + 1, a0 - n_a + 1)), upper=False
        ),
        "upper": _tails(
            remove, x, dx, inside, _hull((upper[0] - 1, upper[1]), (r0 + n_r - 1, r0 + n_r - 1), (a0, a0)), upper=True
        ),
    }
    masses = {
        side: _interval_masses(tails[side], span, upper=side == "upper")
        for side, span in (("lower", lower), ("upper", upper))
    }
    remove_grid = _grid(
        first_r,
        step,
        losses[r0 : r0 + n_r],
        masses,
        [("lower", r0 + 1, r0 + split_r + 1, 1), ("upper", r0 + split_r + 1, r0 + n_r, 1)],
        ("mixture", "plain"),
        _end_tails(tails, ("lower", r0), ("upper", r0 + n_r - 1), "mixture"),
    )
    add_grid = _grid(
        first_a,
        step,
        np.arange(first_a, last_a + 1) * step,
        masses,
        [("upper", a0, a0 - split_a, -1), ("lower", a0 - split_a, a0 - n_a + 1, -1)],
        ("plain", "mixture"),
        _end_tails(tails, ("upper", a0), ("lower", a0 - n_a + 1), "plain"),
    )
    return remove_grid, add_grid


#: σ-independent parts of the grids of :func:`subsampled_gaussian_grids`, per ``(q, step)``, most
#: recently used last: ``(first index, losses, inside, t, dt)`` over a range of grid indices, and
#: the indices of the points within 8 ulps of the loss floor (:func:`check_loss_floor`).
_SHARED: OrderedDict[tuple[float, float], tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = (
    OrderedDict()
)
#: ``(q, step)`` pairs :data:`_SHARED` keeps.
SHARED_ENTRIES = 4


def _shared_part(remove: SubsampledGaussian, step: float, low: int, high: int) -> tuple[np.ndarray, ...]:
    """The grid losses ``i h``, whether each is above the loss floor ``ln(1 − q)``,
    :meth:`~SubsampledGaussian.log_ratio` there (the floor's neighbours: ``floor + 1``), for
    ``low <= i <= high``, and the positions (from ``low``) of the points :func:`check_loss_floor`
    refuses: the parts of a grid that depend on q and h but not on σ.

    Memoised per ``(q, h)`` and grown to the union of the ranges asked (as the Chernoff
    window's table of exponentials): each entry is an elementwise function of ``i``, ``h``
    and ``q``, so the noise multipliers of an epoch schedule, discretised on one grid by
    the accountant, share these three transcendental functions per point instead of each
    computing them: the same bits (a test compares with a fresh evaluation).
    """
    key = (remove.q, step)
    cached = _SHARED.get(key)
    if cached is not None and cached[0] <= low and cached[0] + len(cached[1]) - 1 >= high:
        _SHARED.move_to_end(key)
    else:
        start, stop = low, high
        if cached is not None:
            start, stop = min(low, cached[0]), max(high, cached[0] + len(cached[1]) - 1)
        losses = np.arange(start, stop + 1) * step
        inside = losses > remove.loss_floor
        t, dt = remove.log_ratio(np.where(inside, losses, remove.loss_floor + 1.0))
        floor = remove.loss_floor   # check_loss_floor's test, point by point
        near = np.flatnonzero(np.abs(losses - floor) <= 8 * _U * abs(floor) + 1e-300) + start
        for array in (losses, inside, t, dt, near):
            array.setflags(write=False)
        cached = _SHARED[key] = (start, losses, inside, t, dt, near)
        while len(_SHARED) > SHARED_ENTRIES:
            _SHARED.popitem(last=False)
    first = cached[0]
    return (*(array[low - first : high - first + 1] for array in cached[1:5]), cached[5] - low)


def _hull(*spans: tuple[int, int]) -> tuple[int, int]:
    """The smallest ``(first, last)`` range holding every non-empty span (``(1, 0)`` if none)."""
    spans = tuple(span for span in spans if span[0] <= span[1])
    if not spans:
        return 1, 0
    return min(span[0] for span in spans), max(span[1] for span in spans)


def _tails(
    remove: SubsampledGaussian, x: np.ndarray, dx: np.ndarray, inside: np.ndarray, span: tuple[int, int], *, upper: bool
) -> dict[str, Any]:
    """N(0, σ²)'s and the mixture's log tails and errors at positions ``span[0]..span[1]``,
    as ``log_cdfs`` gives them (points below the loss floor: ``−inf`` lower, ``0`` upper)."""
    start, stop = span[0], span[1] + 1
    where = inside[start:stop]
    plain, plain_error = remove.normal_log_tail(x[start:stop], dx[start:stop], shift=0.0, upper=upper)
    mixture, mixture_error = remove.mixture_log_tail(plain, plain_error, x[start:stop], dx[start:stop], upper=upper)
    if where.all():   # (the usual case) np.where would copy every array unchanged
        return {"start": start, "plain": (0.0 + plain, plain_error), "mixture": (mixture, mixture_error)}
    outside = 0.0 if upper else -np.inf
    return {
        "start": start,
        "plain": (np.where(where, 0.0 + plain, outside), np.where(where, plain_error, 0.0)),
        "mixture": (np.where(where, mixture, outside), np.where(where, mixture_error, 0.0)),
    }


def _interval_masses(tails: dict[str, Any], span: tuple[int, int], *, upper: bool) -> dict[str, Any]:
    """:func:`log_difference` of consecutive tails for the intervals ``(p − 1, p]``, ``p`` in ``span``:
    ``ln(F(p) − F(p − 1))`` from lower tails, ``ln(S(p − 1) − S(p))`` from upper ones."""
    out: dict[str, Any] = {"start": span[0]}
    if span[0] > span[1]:  # no interval of this kind
        return out
    first, stop = span[0] - tails["start"], span[1] + 1 - tails["start"]
    for kind in ("plain", "mixture"):
        values, errors = tails[kind]
        at, before = (slice(first, stop), slice(first - 1, stop - 1))
        if upper:
            out[kind] = log_difference(values[before], values[at], errors[before], errors[at])
        else:
            out[kind] = log_difference(values[at], values[before], errors[at], errors[before])
    return out


def _end_tails(tails: dict[str, Any], first: tuple[str, int], last: tuple[str, int], kind: str) -> tuple[float, float]:
    """P's mass at or below a direction's first point and above its last (upper bounds, as
    :func:`~dpverify.accountants.pld._losses.grid_from_log_cdfs`)."""
    bounds = []
    for side, position in (first, last):
        values, errors = tails[side][kind]
        index = position - tails[side]["start"]
        with np.errstate(under="ignore"):
            bounds.append(float(np.exp(values[index] + 2 * errors[index])) * 1.000001)
    return bounds[0], bounds[1]


def _grid(
    first: int,
    step: float,
    losses: np.ndarray,
    masses: dict[str, Any],
    pieces: list[tuple[str, int, int, int]],
    kinds: tuple[str, str],
    end_tails: tuple[float, float],
) -> LossGrid:
    """One direction's grid: its interval masses read from ``masses`` piece by piece (``(side,
    first position, stop, step)`` in its own interval order), P's law ``kinds[0]``, Q's ``kinds[1]``."""

    def read(kind: str) -> tuple[np.ndarray, ...]:
        parts = []
        for side, start, stop, direction in pieces:
            if start == stop:
                continue
            offset = masses[side]["start"]
            end = stop - offset
            parts.append(
                tuple(
                    array[slice(start - offset, end if end >= 0 else None, direction)] for array in masses[side][kind]
                )
            )
        return tuple(np.concatenate(arrays) for arrays in zip(*parts))

    law = interval_law_from_masses(read(kinds[0]), read(kinds[1]), losses)
    return connect_the_dots(first, step, law, lower_tail=end_tails[0], upper_tail=end_tails[1])
