"""The one-run f-DP recursion in chunks: many steps per numpy call, on a tangent of ``g``.

:mod:`~dpverify.auditing.scores._fdp_one_run` runs the recursion of Mahloujifar,
Melis & Chaudhuri (2024) one step at a time, all entries (pair, hypothesis) on one
global index ``i``. Here each entry runs on its own index from its own ``c`` (entries
of different ``c`` share each numpy call instead of waiting for one another), and a
*chunk* of up to :data:`MAX_CHUNK` steps is one cumulative product and one cumulative
sum: on a chunk starting at ``r``, ``g`` is replaced by its tangent
``ĝ(x) = g(r) + g'(r)(x − r)`` (value and slope rounded low), which is below ``g`` on
``[r, 1]`` because ``g`` is convex (the inverse of a concave, nondecreasing blow-up).
With a linear ``ĝ``, once ``h`` grows it tracks ``ĝ(r)``, and the increments
``d_i = r_i − r_{i+1}`` obey ``d_i = g'(r)·a_i·d_{i+1}``, ``a_i = i/(c' − i)``: a
cumulative product. For ``f_{ε,δ}`` the tangent *is* ``g`` on each of its linear
pieces, so chunks are exact up to rounding; for ``G_μ`` each entry's chunk is the
longest power of two whose tangent falls short of ``g`` at its end by at most a
relative 10⁻¹¹ of ``h``. Where chunks would stay one or two steps long (``r`` doubling
on the way to a refutation) the loop takes plain steps, eight at a time.

Soundness (``docs/proofs/auditing.md`` §16, *chunks*): a recursion with a smaller
nondecreasing function in some steps is a smaller ladder, each chunk's partial sums
carry a relative error below 10⁻¹², and the stored end state is rounded so that
``r`` stays below the ladder form of the stored ``h``; a refutation still needs the
stored ``r + h`` above ``(c'/m)(1 + 10⁻⁹)``. Declaring "not refuted" early (the
increments have started to shrink geometrically and cannot reach the bound) is
always on the safe side.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import special

__all__ = ["MAX_CHUNK", "PLAIN_STEPS", "Curve", "chunked_refutes", "epsilon_curve", "gaussian_curve"]

#: Longest chunk (steps per cumulative product); the error bound below needs ≤ 2048.
MAX_CHUNK = 512
#: Relative error bound of a chunk's partial sums: γ_{4L+8} ≤ 2.3e-13 for L ≤ 512.
_CHUNK_ERROR = 1e-12
#: Absolute slack for underflow (subnormal roundings) in a chunk's sums.
_TINY = 1e-290
#: Relative lowering of ``g`` (value) and of its slope; the slope's float error is ~1e-13.
_INVERSE_SLACK = 1e-9
_SLOPE_SLACK = 1e-6
#: Tangent shortfall at a chunk's end, relative to h, above which the entry's chunk halves.
_TANGENT_TOLERANCE = 1e-11
#: A chunk runs only while the upper bound on r stays below 1 − this (``g`` is capped at 1).
_ONE_MARGIN = 1e-6
#: Relative lowering of r in a plain step (as recursion_total's).
_STEP_SLACK = 1e-12
#: Plain steps taken at a time when chunks stay short.
PLAIN_STEPS = 8
#: "Not refuted" early once the steps shrink by this ratio and ten times the tail cannot reach the bound.
_DECAY = 0.99

#: A trade-off family as ``(g(x, parameter), lower bound on g's right derivative at x)``.
Curve = tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], Callable[[np.ndarray, np.ndarray], np.ndarray]]


def epsilon_curve(delta: float) -> Curve:
    """``g`` of ``f_{ε,δ}`` with ``e^ε`` per entry, and its right slope (0, ``e^{−ε}`` or ``e^ε``).

    ``g(x) = max(0, (x − δ)e^{−ε}, 1 − δ − e^{ε}(1 − x))`` lowered by a relative 10⁻⁹
    (as :func:`~dpverify.auditing.scores._fdp_one_run.epsilon_inverse`). The slope is
    ``e^ε`` only where the upper piece leads by 10⁻⁹ (clearly past the kink),
    ``e^{−ε}`` from ``x ≥ δ`` (a float comparison, exact) and 0 below, lowered by
    10⁻⁹: never above the right derivative.
    """

    def pieces(x: np.ndarray, factor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x - delta) / factor, 1.0 - delta - factor * (1.0 - x)

    def slope(x: np.ndarray, factor: np.ndarray, middle=None, upper=None) -> np.ndarray:
        if middle is None:
            middle, upper = pieces(x, factor)
        value = np.where(upper >= middle + 1e-9, factor, np.where(x >= delta, 1.0 / factor, 0.0))
        return value * (1 - _INVERSE_SLACK)

    def value_and_slope(x: np.ndarray, factor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        middle, upper = pieces(x, factor)
        value = np.maximum(np.maximum(middle, upper), 0.0) * (1 - _INVERSE_SLACK)
        return value, slope(x, factor, middle, upper)

    return value_and_slope, slope


def _gaussian_value_and_slope(x: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``Φ(z − μ)`` lowered by 10⁻⁹ and ``g'(x) = φ(z − μ)/φ(z) = exp(μz − μ²/2)``, ``z = Φ⁻¹(x)``."""
    z = special.ndtri(x)
    return special.ndtr(z - mu) * (1 - _INVERSE_SLACK), _slope_at(z, mu)


def _slope_at(z: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """``exp(μz − μ²/2)`` lowered by a relative 10⁻⁶ (far above its float error)."""
    return np.exp(mu * z - 0.5 * mu * mu) * (1 - _SLOPE_SLACK)


def _gaussian_slope(x: np.ndarray, mu: np.ndarray) -> np.ndarray:
    return _slope_at(special.ndtri(x), mu)


def gaussian_curve() -> Curve:
    """``g`` of ``G_μ`` with μ per entry, ``Φ(Φ⁻¹(x) − μ)`` lowered by 10⁻⁹, and its slope."""
    return _gaussian_value_and_slope, _gaussian_slope


class _Entries:
    """The live entries' state, one flat array per field, compressed as entries retire."""

    fields = ("ids", "index", "guesses", "param", "bound", "r", "h", "length", "step")

    def __init__(self, **arrays: np.ndarray) -> None:
        for name in self.fields:
            setattr(self, name, arrays[name])

    def keep(self, mask: np.ndarray) -> None:
        for name in self.fields:
            setattr(self, name, getattr(self, name)[mask])


def _chunk(state: _Entries, value: np.ndarray, slope: np.ndarray) -> tuple[np.ndarray, ...]:
    """Partial sums ``D_k`` of one chunk per entry (rows): ``r`` after k + 1 steps is ``r + D_k``.

    Step 0 is the usual step ``d_0 = a(ĝ(r) − h)``; step k ≥ 1 is ``d_k = ĝ'·a_k·d_{k−1}``.
    Returns the sums, the ``a_k`` of the steps and the steps' indices (``a = 0`` below 0).
    """
    width = int(state.length.max())
    steps = state.index[:, None] - 1 - np.arange(width)[None, :]
    a = np.where(steps >= 0, steps / np.maximum(state.guesses[:, None] - steps, 1.0), 0.0)
    factors = slope[:, None] * a
    factors[:, 0] = 1.0
    sums = np.cumsum(np.cumprod(factors, axis=1), axis=1) * (a[:, 0] * (value - state.h))[:, None]
    return sums, a


def _longest_tangent(
    state: _Entries, sums: np.ndarray, slope: np.ndarray, slope_of: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Per entry, the longest chunk ``K`` (1, 2, 4, …) whose tangent stays within tolerance of ``g``.

    By convexity ``g(x) − ĝ(x) ≤ (g'(x) − ĝ')(x − r)``; the chunk's last ``h`` reads ``ĝ``
    at ``x = r + D_{K−2}``. A shortfall above a relative 10⁻¹¹ of ``h`` would lose
    tightness (never soundness), so the chunk is cut there.
    """
    steps = np.minimum(state.length, state.index)
    candidates = 2 ** np.arange(1, int(steps.max()).bit_length())  # 2, 4, … ≤ the longest
    if candidates.size == 0:
        return np.ones_like(steps)
    travel = sums[:, candidates - 2]
    x = np.minimum(state.r[:, None] + travel, 1.0)
    short = (slope_of(x, state.param[:, None]) - slope[:, None]) * travel
    fine = (candidates[None, :] <= steps[:, None]) & (short <= _TANGENT_TOLERANCE * state.h[:, None])
    # the longest K such that every candidate up to K is fine
    good = np.cumprod(fine, axis=1).sum(axis=1)
    return np.where(good > 0, 2**good, 1)


def _advance(
    state: _Entries, value: np.ndarray, slope: np.ndarray, slope_of: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> None:
    """One chunk for every entry (``h`` grows at its first step), rounded so the state errs low."""
    sums, a = _chunk(state, value, slope)
    rows = np.arange(state.r.size)
    steps = _longest_tangent(state, sums, slope, slope_of)  # K ≥ 1 steps, never past index 0
    last = sums[rows, steps - 1]
    before = np.where(steps >= 2, sums[rows, np.maximum(steps - 2, 0)], 0.0)
    inside = state.r + last * (1 + _CHUNK_ERROR) + _TINY <= 1.0 - _ONE_MARGIN
    # a chunk is valid while ĝ is evaluated below 1; otherwise one plain step (K = 1)
    steps = np.where(inside, steps, 1)
    last = np.where(inside, last, sums[:, 0])
    before = np.where(inside, before, 0.0)
    low = np.maximum(before * (1 - 2 * _CHUNK_ERROR) - _TINY, 0.0)
    high = before * (1 + 2 * _CHUNK_ERROR) + _TINY
    h_low = (value + slope * low) * (1 - 1e-15)  # ≤ the ladder's h = ĝ(r + D_{K−2})
    h_high = (value + slope * high) * (1 + 1e-15)
    shortfall = (h_high - h_low) * (1 + 1e-15) * a[rows, steps - 1] * (1 + 1e-15)
    # r + D_{K-1} - shortfall, each rounding stepped one float down (at most the exact value)
    total = np.nextafter(state.r + np.maximum(last * (1 - 2 * _CHUNK_ERROR) - _TINY, 0.0), -np.inf)
    r_new = np.nextafter(total - shortfall, -np.inf)
    # for the next chunk's length and the early stop (speed only): the chunk's last step
    state.step = np.maximum(last - before, 0.0)
    state.length = np.minimum(2 * np.maximum(steps, 2), MAX_CHUNK)
    state.r, state.h, state.index = r_new, h_low, state.index - steps


def chunked_refutes(
    canaries: int,
    guesses: np.ndarray,
    correct: np.ndarray,
    level: float,
    curve: Curve,
    parameters: np.ndarray,
    *,
    early: bool = True,
    largest_only: bool = False,
) -> np.ndarray:
    """Whether each pair (rows) refutes each parameter's curve (columns) at ``level``.

    The decision of :func:`~dpverify.auditing.scores._fdp_one_run.refuted`, in chunks
    (module docstring); with ``early=False`` every entry runs until ``h`` stops growing
    or index 0 (for tests). With ``largest_only``, entries whose parameter is below one
    already refuted (by any pair) stop unrefuted: the largest refuted parameter, the
    pairs that refute it and every refutation at or above it are as without.
    """
    pairs, count = np.size(guesses), np.size(parameters)
    entry_guess = np.repeat(np.asarray(guesses, dtype=float), count)
    entry_correct = np.repeat(np.asarray(correct, dtype=np.int64), count)
    scale = level * (1 - 1e-7)  # as recursion_total: the start's rounding
    state = _Entries(
        ids=np.arange(pairs * count),
        index=entry_correct.copy(),
        guesses=entry_guess,
        param=np.tile(np.asarray(parameters, dtype=float), pairs),
        bound=entry_guess / canaries * (1 + 1e-9),
        r=scale * entry_correct / canaries,
        h=scale * (entry_guess - entry_correct) / canaries,
        length=np.full(pairs * count, 16, dtype=np.int64),
        step=np.zeros(pairs * count),
    )
    result = np.zeros(pairs * count, dtype=bool)
    with np.errstate(all="ignore"):  # inf and nan only reach entries they retire or keep low
        _run(state, result, curve, early, largest_only)
    return result.reshape(pairs, count)


def _run(state: _Entries, result: np.ndarray, curve: Curve, early: bool, largest_only: bool) -> None:
    """The chunk loop of :func:`chunked_refutes`: retire, record refutations, advance."""
    value_and_slope, slope_of = curve
    first, floor = True, -np.inf
    while state.r.size:
        hit = state.r + state.h > state.bound
        x = np.minimum(state.r, 1.0)
        value, slope = value_and_slope(x, state.param)
        slope = np.where(np.isfinite(slope), slope, 0.0)
        done = hit | (state.index == 0) | ~(value > state.h)
        if early and not first:
            done |= _cannot_reach(state, slope)
        result[state.ids[hit]] = True
        if largest_only and hit.any():
            # entries below a refuted parameter cannot raise the largest refuted one
            floor = max(floor, float(state.param[hit].max()))
            done |= state.param < floor
        if done.any():
            state.keep(~done)
            value, slope = value[~done], slope[~done]
        if not state.r.size:
            break
        before = state.index
        _advance(state, value, slope, slope_of)
        first = False
        if 2 * np.count_nonzero(before - state.index <= 2) >= before.size:  # mostly short chunks
            # g curves too fast for chunks (r doubling on the way to a refutation): plain steps
            _plain_steps(state, value_and_slope, PLAIN_STEPS)


def _plain_steps(state: _Entries, value_and_slope, steps: int) -> None:
    """``steps`` steps of the recursion one at a time, exactly as :func:`recursion_total` takes them.

    ``h = max(h, g(min(r, 1)))``, ``r = (r + a_i·growth)(1 − 10⁻¹²)``; cheaper per step than
    a chunk where ``r`` grows too fast for a tangent (a refutation under way). Entries at
    index 0 stay put.
    """
    for _ in range(steps):
        moving = state.index > 0
        index = np.maximum(state.index - 1, 0)
        raised = np.maximum(state.h, value_and_slope(np.minimum(state.r, 1.0), state.param)[0])
        grow = np.where(moving, raised - state.h, 0.0)
        step = grow * (index / np.maximum(state.guesses - index, 1.0))
        state.r = (state.r + step) * np.where(moving, 1 - _STEP_SLACK, 1.0)
        state.h = np.where(moving, raised, state.h)
        state.index, state.step = index, step


def _cannot_reach(state: _Entries, slope: np.ndarray) -> np.ndarray:
    """A heuristic "not refuted" (always safe): the steps shrink and 10× their tail misses the bound."""
    index = np.maximum(state.index - 1, 0)
    ratio = slope * index / np.maximum(state.guesses - index, 1.0)
    tail = 10.0 * (1.0 + slope) * state.step * ratio / np.maximum(1.0 - ratio, 1e-300)
    return (ratio < _DECAY) & (state.r + state.h + tail < state.bound)
