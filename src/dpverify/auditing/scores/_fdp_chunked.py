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
:func:`chunked_refutes_groups` runs several searches (the ε and μ grids) in one loop,
each bit for bit as it would run alone (``docs/proofs/auditing.md`` §16, *Searches side
by side*).

Soundness (``docs/proofs/auditing.md`` §16, *chunks*): a recursion with a smaller
nondecreasing function in some steps is a smaller ladder, each chunk's partial sums
carry a relative error below 10⁻¹², and the stored end state is rounded so that
``r`` stays below the ladder form of the stored ``h``; a refutation still needs the
stored ``r + h`` above ``(c'/m)(1 + 10⁻⁹)``. Declaring "not refuted" early (the
increments have started to shrink geometrically and cannot reach the bound) is
always on the safe side.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import NamedTuple

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

Function = Callable[[np.ndarray, np.ndarray], np.ndarray]


class Curve(NamedTuple):
    """A trade-off family: ``g(x, parameter)`` with a lower bound on its right derivative at x."""

    #: ``(g(x), slope)`` at once (shared work).
    value_and_slope: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    #: The slope alone.
    slope: Function
    #: ``g(x)`` alone: the same floats as ``value_and_slope``'s first.
    value: Function


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

    def value(x: np.ndarray, factor: np.ndarray) -> np.ndarray:
        return np.maximum(np.maximum(*pieces(x, factor)), 0.0) * (1 - _INVERSE_SLACK)

    return Curve(value_and_slope, slope, value)


def _gaussian_value_and_slope(x: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``Φ(z − μ)`` lowered by 10⁻⁹ and ``g'(x) = φ(z − μ)/φ(z) = exp(μz − μ²/2)``, ``z = Φ⁻¹(x)``."""
    z = special.ndtri(x)
    return special.ndtr(z - mu) * (1 - _INVERSE_SLACK), _slope_at(z, mu)


def _gaussian_value(x: np.ndarray, mu: np.ndarray) -> np.ndarray:
    return special.ndtr(special.ndtri(x) - mu) * (1 - _INVERSE_SLACK)


def _slope_at(z: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """``exp(μz − μ²/2)`` lowered by a relative 10⁻⁶ (far above its float error)."""
    return np.exp(mu * z - 0.5 * mu * mu) * (1 - _SLOPE_SLACK)


def _gaussian_slope(x: np.ndarray, mu: np.ndarray) -> np.ndarray:
    return _slope_at(special.ndtri(x), mu)


def gaussian_curve() -> Curve:
    """``g`` of ``G_μ`` with μ per entry, ``Φ(Φ⁻¹(x) − μ)`` lowered by 10⁻⁹, and its slope."""
    return Curve(_gaussian_value_and_slope, _gaussian_slope, _gaussian_value)


class _Entries:
    """The live entries' state, one flat array per field, compressed as entries retire.

    Entries are ordered by group, and stay so (compression keeps the order): each
    group's entries are one slice, ``spans``.
    """

    fields = ("ids", "group", "index", "guesses", "param", "bound", "r", "h", "length", "step")

    def __init__(self, **arrays: np.ndarray) -> None:
        for name in self.fields:
            setattr(self, name, arrays[name])
        #: Every entry's index at most its guesses (c ≤ c'; kept as indices fall).
        self.ordered = bool(np.all(self.index <= self.guesses))

    def keep(self, kept: np.ndarray) -> None:
        """Keep the entries at the positions ``kept`` (increasing)."""
        for name in self.fields:
            setattr(self, name, getattr(self, name)[kept])


#: The live groups as ``(group, first entry, end)``, the entries of a group being one slice.
Spans = list[tuple[int, int, int]]


def _spans(group: np.ndarray, groups: int) -> Spans:
    if groups == 1:
        return [(0, 0, group.size)]
    edges = np.searchsorted(group, np.arange(groups + 1)).tolist()
    return [(g, edges[g], edges[g + 1]) for g in range(groups) if edges[g + 1] > edges[g]]


def _kept_spans(spans: Spans, done: np.ndarray) -> Spans:
    """The spans once the ``done`` entries are dropped (as :func:`_spans` of the kept groups)."""
    kept, low = [], 0
    for g, start, end in spans:
        count = end - start - np.count_nonzero(done[start:end])
        if count:
            kept.append((g, low, low + count))
            low += count
    return kept


def _by_group(curves: Sequence[Curve], spans: Spans, field: str, x: np.ndarray,
              param: np.ndarray):
    """``curve.<field>(x, param)`` of each entry's group (rows of 1-d or 2-d arrays): elementwise,
    so each entry's floats are those of its curve on all the entries."""
    if len(spans) == 1:
        return getattr(curves[spans[0][0]], field)(x, param)
    parts = [getattr(curves[g], field)(x[low:high], param[low:high]) for g, low, high in spans]
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate(column) for column in zip(*parts))
    return np.concatenate(parts)


class _Scratch:
    """Work arrays reused from chunk to chunk (a fresh array of a few hundred kB costs page
    faults comparable to the arithmetic on it); views of flat buffers grown on demand, one
    set per thread, of which at most :data:`_KEPT` elements each outlive a search."""

    def __init__(self) -> None:
        self.buffers: dict[str, np.ndarray] = {}

    @classmethod
    def of_this_thread(cls) -> _Scratch:
        scratch = getattr(_THREAD, "scratch", None)
        if scratch is None:
            scratch = _THREAD.scratch = cls()
        return scratch

    def trim(self) -> None:
        self.buffers = {name: buffer for name, buffer in self.buffers.items()
                        if buffer.size <= _KEPT}

    def get(self, name: str, rows: int, columns: int, dtype: type = np.float64) -> np.ndarray:
        buffer = self.buffers.get(name)
        if buffer is None or buffer.size < rows * columns:
            buffer = self.buffers[name] = np.empty(max(rows * columns, 4096), dtype=dtype)
        return buffer[: rows * columns].reshape(rows, columns)


#: Largest work buffer (elements) kept between searches.
_KEPT = 1 << 17
_THREAD = threading.local()

#: Chunk lengths tried by the tangent test: 2, 4, …, MAX_CHUNK.
_CANDIDATES = 2 ** np.arange(1, MAX_CHUNK.bit_length())
#: Columns of the sums read by the tangent test (``K − 2`` for each candidate ``K``).
_CANDIDATE_COLUMNS = _CANDIDATES - 2
#: ``2**j`` for the count ``j`` of fine candidates (the chunk length; int64 as ``1 << j``).
_POWERS = np.left_shift(1, np.arange(MAX_CHUNK.bit_length() + 1, dtype=np.int64))
#: Column offsets of a chunk's steps.
_COLUMNS = np.arange(MAX_CHUNK, dtype=np.float64)
#: A chunk's bounds on ``D_{K−2}`` (rows low, high), elementwise the floats of
#: ``before·(1 ∓ 2e) ∓ tiny``, and the roundings of the ``h`` read there.
_BEFORE_SCALES = np.array([[1 - 2 * _CHUNK_ERROR], [1 + 2 * _CHUNK_ERROR]])
_BEFORE_SHIFTS = np.array([[-_TINY], [_TINY]])
_HEIGHT_SCALES = np.array([[1 - 1e-15], [1 + 1e-15]])
#: Index offsets of plain steps taken :data:`PLAIN_STEPS` at a time.
_PLAIN_OFFSETS = np.arange(1, PLAIN_STEPS + 1)[:, None]


def _chunk(state: _Entries, value: np.ndarray, slope: np.ndarray,
           scratch: _Scratch) -> tuple[np.ndarray, ...]:
    """Partial sums ``D_k`` of one chunk per entry (rows): ``r`` after k + 1 steps is ``r + D_k``.

    Step 0 is the usual step ``d_0 = a(ĝ(r) − h)``; step k ≥ 1 is ``d_k = ĝ'·a_k·d_{k−1}``.
    Returns the sums *before* their scale ``d_0`` (``D_k = sums[k]·d_0``, one rounding,
    applied by the callers to the few columns they read: the same floats as scaling every
    column), the scales, and the ``a_k`` of the steps (``a = 0`` below index 0); the sums
    and ``a`` are views of ``scratch`` (valid until the next chunk).
    """
    rows, width = state.r.size, int(np.maximum.reduce(state.length))
    # the steps' indices i (integers, exact in floats) and a_i = i / max(c' − i, 1); an
    # entry's index never exceeds its c ≤ c', so c' − i ≥ 1 and the max is the identity
    steps = np.subtract((state.index - 1.0)[:, None], _COLUMNS[None, :width],
                        out=scratch.get("steps", rows, width))
    a = np.subtract(state.guesses[:, None], steps, out=scratch.get("a", rows, width))
    if not state.ordered:
        np.maximum(a, 1.0, out=a)
    np.divide(steps, a, out=a)
    if int(np.minimum.reduce(state.index)) < width:  # steps below index 0 (few entries, near their end)
        a[steps < 0] = 0.0
    factors = np.multiply(slope[:, None], a, out=scratch.get("factors", rows, width))
    factors[:, 0] = 1.0
    products = np.cumprod(factors, axis=1, out=scratch.get("products", rows, width))
    sums = np.cumsum(products, axis=1, out=factors)
    return sums, a[:, 0] * (value - state.h), a


def _longest_tangent(state: _Entries, sums: np.ndarray, scale: np.ndarray, slope: np.ndarray,
                     slope_of: Function) -> np.ndarray:
    """Per entry, the longest chunk ``K`` (1, 2, 4, …) whose tangent stays within tolerance of ``g``.

    By convexity ``g(x) − ĝ(x) ≤ (g'(x) − ĝ')(x − r)``; the chunk's last ``h`` reads ``ĝ``
    at ``x = r + D_{K−2}``. A shortfall above a relative 10⁻¹¹ of ``h`` would lose
    tightness (never soundness), so the chunk is cut there. Each entry's ``K`` is its
    own: candidates beyond its steps are never fine.
    """
    steps = np.minimum(state.length, state.index)
    count = int(np.maximum.reduce(steps)).bit_length() - 1
    if count == 0:
        return np.ones_like(steps)
    candidates = _CANDIDATES[:count]  # 2, 4, … ≤ the longest
    travel = sums[:, _CANDIDATE_COLUMNS[:count]]
    np.multiply(travel, scale[:, None], out=travel)
    x = np.minimum(state.r[:, None] + travel, 1.0)
    short = (slope_of(x, state.param[:, None]) - slope[:, None]) * travel
    # fine candidates in the first count columns, a last column never fine
    fine = np.zeros((steps.size, count + 1), dtype=bool)
    np.logical_and(candidates[None, :] <= steps[:, None],
                   short <= _TANGENT_TOLERANCE * state.h[:, None], out=fine[:, :count])
    # the longest K such that every candidate up to K is fine: 2**(the first column not fine)
    return _POWERS[np.argmin(fine, axis=1)]


def _advance(state: _Entries, value: np.ndarray, slope: np.ndarray, slope_of: Function,
             scratch: _Scratch) -> np.ndarray:
    """One chunk for every entry (``h`` grows at its first step), rounded so the state errs low;
    returns each entry's steps taken."""
    sums, scale, a = _chunk(state, value, slope, scratch)
    rows, width = sums.shape
    steps = _longest_tangent(state, sums, scale, slope, slope_of)  # K ≥ 1 steps, never past index 0
    # flat positions of column K − 1 of each row (sums and a are C-contiguous views)
    at = np.arange(0, rows * width, width) + steps
    at -= 1
    flat_sums = sums.reshape(-1)
    last = flat_sums[at] * scale
    # column K − 2 (at K = 1 the previous row's last element, or the very last: not used)
    before = flat_sums[at - 1] * scale
    if int(np.minimum.reduce(steps)) < 2:
        before[steps < 2] = 0.0
    inside = state.r + last * (1 + _CHUNK_ERROR) + _TINY <= 1.0 - _ONE_MARGIN
    if not np.logical_and.reduce(inside):  # a chunk is valid while ĝ is evaluated below 1; else one plain step
        steps = np.where(inside, steps, 1)
        at = np.where(inside, at, at - (at % width))
        last = np.where(inside, last, sums[:, 0] * scale)
        before = np.where(inside, before, 0.0)
    # rows low, high: max(before·(1 − 2e) − tiny, 0) and before·(1 + 2e) + tiny
    bounds = np.multiply(before, _BEFORE_SCALES)
    bounds += _BEFORE_SHIFTS
    np.maximum(bounds[0], 0.0, out=bounds[0])
    # rows h_low ≤ the ladder's h = ĝ(r + D_{K−2}), and h_high: (value + slope·bound)(1 ∓ 1e-15)
    heights = np.multiply(slope, bounds, out=bounds)
    heights += value
    heights *= _HEIGHT_SCALES
    h_low = heights[0]
    shortfall = (heights[1] - h_low) * (1 + 1e-15) * a.reshape(-1)[at] * (1 + 1e-15)
    # r + D_{K-1} - shortfall, each rounding stepped one float down (at most the exact value)
    total = np.nextafter(state.r + np.maximum(last * (1 - 2 * _CHUNK_ERROR) - _TINY, 0.0), -np.inf)
    r_new = np.nextafter(total - shortfall, -np.inf)
    # for the next chunk's length and the early stop (speed only): the chunk's last step
    state.step = np.maximum(last - before, 0.0)
    state.length = np.minimum(2 * np.maximum(steps, 2), MAX_CHUNK)
    state.r, state.h, state.index = r_new, h_low, state.index - steps
    return steps


#: One search of :func:`chunked_refutes_groups`: ``(guesses, correct, level, curve, parameters)``.
Group = tuple[np.ndarray, np.ndarray, float, Curve, np.ndarray]


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
    group = (guesses, correct, level, curve, parameters)
    return chunked_refutes_groups(canaries, [group], early=early, largest_only=largest_only)[0]


def chunked_refutes_groups(canaries: int, groups: Sequence[Group], *, early: bool = True,
                           largest_only: bool = False) -> list[np.ndarray]:
    """:func:`chunked_refutes` of several searches in one loop: one decision array per group.

    Each group's decisions are bit for bit those of :func:`chunked_refutes` on it alone:
    every entry's arithmetic is its own (elementwise, or along its own row), and the
    loop's choices that look at many entries — plain steps when chunks stay short, the
    ``largest_only`` floor — are taken per group. Searches that do not depend on each
    other (the ε and μ grids) so share each numpy call instead of running one after the
    other.
    """
    # per pair (columns of `pair_floats`: guesses, bound, r, h), then repeated per parameter
    shapes = [(np.size(guesses), np.size(parameters))
              for guesses, _, _, _, parameters in groups]
    pair_floats, pair_ints, params = [], [], []
    for number, (guesses, correct, level, _, parameters) in enumerate(groups):
        guesses = np.asarray(guesses, dtype=float).reshape(-1)
        correct = np.asarray(correct, dtype=np.int64).reshape(-1)
        scale = level * (1 - 1e-7)  # as recursion_total: the start's rounding
        floats = np.empty((4, guesses.size))
        floats[0] = guesses
        np.divide(guesses, canaries, out=floats[1])
        floats[1] *= 1 + 1e-9  # bound = c'/m · (1 + 10⁻⁹)
        np.multiply(scale, correct, out=floats[2])
        floats[2] /= canaries  # r = τc/m
        np.subtract(guesses, correct, out=floats[3])
        floats[3] *= scale
        floats[3] /= canaries  # h = τ(c' − c)/m
        ints = np.empty((2, guesses.size), dtype=np.int64)
        ints[0], ints[1] = correct, number
        pair_floats.append(floats)
        pair_ints.append(ints)
        params.append(np.asarray(parameters, dtype=float).reshape(1, -1)
                      .repeat(guesses.size, axis=0).reshape(-1))
    repeats = np.concatenate([np.full(pairs, count) for pairs, count in shapes])
    floats = np.repeat(np.concatenate(pair_floats, axis=1), repeats, axis=1)
    ints = np.repeat(np.concatenate(pair_ints, axis=1), repeats, axis=1)
    total = floats.shape[1]
    state = _Entries(ids=np.arange(total), group=ints[1], index=ints[0].copy(), guesses=floats[0],
                     param=np.concatenate(params), bound=floats[1], r=floats[2], h=floats[3],
                     length=np.full(total, 16, dtype=np.int64), step=np.zeros(total))
    result = np.zeros(total, dtype=bool)
    with np.errstate(all="ignore"):  # inf and nan only reach entries they retire or keep low
        try:
            _run(state, result, [group[3] for group in groups], early, largest_only)
        finally:
            _Scratch.of_this_thread().trim()
    parts, low = [], 0
    for pairs, count in shapes:
        parts.append(result[low:low + pairs * count].reshape(pairs, count))
        low += pairs * count
    return parts


def _run(state: _Entries, result: np.ndarray, curves: Sequence[Curve], early: bool,
         largest_only: bool) -> None:
    """The chunk loop of :func:`chunked_refutes_groups`: retire, record refutations, advance."""
    first, floors, scratch = True, np.full(len(curves), -np.inf), _Scratch.of_this_thread()
    spans = _spans(state.group, len(curves))
    while state.r.size:
        total = state.r + state.h
        hit = total > state.bound
        x = np.minimum(state.r, 1.0)
        value, slope = _by_group(curves, spans, "value_and_slope", x, state.param)
        slope = np.where(np.isfinite(slope), slope, 0.0)
        done = hit | (state.index == 0) | ~(value > state.h)
        if early and not first:
            done |= _cannot_reach(state, slope, total)
        if hit.any():
            result[state.ids[hit]] = True
            if largest_only:
                # entries below a refuted parameter of their group cannot raise its largest one
                np.maximum.at(floors, state.group[hit], state.param[hit])
                done |= state.param < floors[state.group]
        if done.any():
            kept = np.flatnonzero(~done)
            if not kept.size:
                break
            spans = (_kept_spans(spans, done) if len(spans) > 1
                     else [(spans[0][0], 0, kept.size)])
            state.keep(kept)
            value, slope = value[kept], slope[kept]
        steps = _advance(state, value, slope,
                         lambda x, param, spans=spans: _by_group(curves, spans, "slope", x, param),
                         scratch)
        first = False
        short = steps <= 2
        # g curves too fast for chunks (r doubling on the way to a refutation): plain steps
        plain = [(g, low, high) for g, low, high in spans  # mostly short chunks in the group
                 if 2 * np.count_nonzero(short[low:high]) >= high - low]
        if plain:
            _plain_steps(state, curves, plain, spans, PLAIN_STEPS)


def _plain_steps(state: _Entries, curves: Sequence[Curve], plain: Spans, spans: Spans,
                 steps: int) -> None:
    """``steps`` steps of the recursion one at a time for the groups in ``plain``.

    As :func:`recursion_total` takes them: ``h = max(h, g(min(r, 1)))``,
    ``r = (r + a_i·growth)(1 − 10⁻¹²)``; cheaper per step than a chunk where ``r`` grows
    too fast for a tangent (a refutation under way). Entries at index 0 stay put.
    """
    if len(plain) == len(spans):  # every group: the whole state
        rows, local = slice(None), spans
    elif len(plain) == 1:  # one group: its slice
        rows, local = slice(plain[0][1], plain[0][2]), [(plain[0][0], 0, plain[0][2] - plain[0][1])]
    else:
        rows = np.concatenate([np.arange(low, high) for _, low, high in plain])
        edges = np.cumsum([0] + [high - low for _, low, high in plain]).tolist()
        local = [(g, edges[k], edges[k + 1]) for k, (g, _, _) in enumerate(plain)]
    param = state.param[rows]
    if len(local) == 1:  # one curve: called directly
        curve_value = curves[local[0][0]].value
        value = lambda x: curve_value(x, param)  # noqa: E731
    else:
        value = lambda x: _by_group(curves, local, "value", x, param)  # noqa: E731
    (r, step), h, index = _plain_run(state.r[rows], state.h[rows], state.index[rows],
                                     state.guesses[rows], value, steps)
    if len(plain) == len(spans):
        state.r, state.h, state.index, state.step = r, h, index, step
    else:  # r, h, index and step are _advance's fresh arrays: written in place
        state.r[rows], state.h[rows], state.index[rows], state.step[rows] = r, h, index, step


def _plain_run(r: np.ndarray, h: np.ndarray, index: np.ndarray, guesses: np.ndarray,
               value: Callable[[np.ndarray], np.ndarray], steps: int):
    """The plain steps on arrays; returns ``((r, last step), h, index)``."""
    if int(np.minimum.reduce(index, initial=steps)) >= steps:  # every entry moves at every step
        offsets = _PLAIN_OFFSETS if steps == PLAIN_STEPS else np.arange(1, steps + 1)[:, None]
        later = index[None, :] - offsets  # the index after each step
        factors = later / np.maximum(guesses[None, :] - later, 1.0)  # a_i, as step by step
        for factor in list(factors):
            raised = np.maximum(h, value(np.minimum(r, 1.0)))
            step = (raised - h) * factor
            r = (r + step) * (1 - _STEP_SLACK)
            h = raised
        return (r, step), h, later[-1]
    step = np.zeros_like(r)
    for _ in range(steps):
        moving = index > 0
        index = np.maximum(index - 1, 0)
        raised = np.maximum(h, value(np.minimum(r, 1.0)))
        grow = np.where(moving, raised - h, 0.0)
        step = grow * (index / np.maximum(guesses - index, 1.0))
        r = (r + step) * np.where(moving, 1 - _STEP_SLACK, 1.0)
        h = np.where(moving, raised, h)
    return (r, step), h, index


def _cannot_reach(state: _Entries, slope: np.ndarray, total: np.ndarray) -> np.ndarray:
    """A heuristic "not refuted" (always safe): the steps shrink and 10× their tail misses the bound.

    Entries at index 0 retire in the same round whatever this says, so their index − 1
    is not clamped at 0; with every index at most its guesses, ``c' − (i − 1) ≥ 1`` needs
    no clamp either (the others' floats are those of the clamped forms).
    """
    index = state.index - 1
    ratio = slope * index / (state.guesses - index if state.ordered
                             else np.maximum(state.guesses - index, 1.0))
    # (where ratio < _DECAY, 1 − ratio > 0.01: entries with a larger ratio, or nan, fail the
    # first test whatever their tail)
    tail = 10.0 * (1.0 + slope) * state.step * ratio / (1.0 - ratio)
    return (ratio < _DECAY) & (total + tail < state.bound)  # total = r + h
