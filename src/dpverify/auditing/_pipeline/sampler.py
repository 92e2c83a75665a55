"""A user's sampler as the engine's :data:`~dpverify.auditing._pipeline.engine.Draw`.

:func:`prepare_draw` probes the sampler's contract
(:mod:`dpverify.auditing._pipeline.safety`) and returns a :class:`SamplerDraw`:
one generator spawned from the audit's seed per side, outputs flattened to
numeric columns (:mod:`dpverify.auditing._pipeline.outputs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from dpverify.auditing._pipeline.engine import Draw
from dpverify.auditing._pipeline.outputs import CategoryCodes, as_columns
from dpverify.auditing._pipeline.safety import check_threads, choose_threads

__all__ = ["Sampler", "SamplerDraw", "prepare_draw"]

#: ``sampler(data, size, rng) -> np.ndarray``: ``size`` independent outputs of the mechanism on ``data``.
Sampler = Callable[[Any, int, np.random.Generator], Any]


def prepare_draw(sampler: Sampler, x: Any, x_prime: Any, seed: Any,
                 threads: Any = "auto", samples: int | None = None) -> tuple[Draw, bool]:
    """A :data:`~dpverify.auditing._pipeline.engine.Draw` calling the sampler; whether to use threads.

    ``SeedSequence(seed).spawn(2)``: one generator per side, so the two sides'
    outputs are independent and the same seed gives the same audit. Record
    outputs (tuples, dicts, structured arrays, strings) are flattened to
    numeric columns (:func:`dpverify.auditing._pipeline.outputs.as_columns`).
    The sampler is probed first
    (:func:`dpverify.auditing._pipeline.safety.choose_threads`): a sampler that ignores its rng or shares state between the sides is drawn
    in one thread, with a loud :class:`~dpverify.errors.AuditWarning`.
    """
    threads = check_threads(threads)
    codes = CategoryCodes()
    threaded = choose_threads(sampler, (x, x_prime), threads, codes, max_rows=samples)
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return SamplerDraw(sampler, (x, x_prime), sequence, codes), threaded


class SamplerDraw:
    """A :data:`~dpverify.auditing._pipeline.engine.Draw` on a sampler: a spawned generator per side.

    ``codes`` maps string categories to numbers; the engine calls
    :meth:`end_search` when the event search is done, which freezes them
    (:meth:`~dpverify.auditing._pipeline.outputs.CategoryCodes.freeze`) so
    that the certification split — here or in chunks elsewhere — codes every
    output the same way.
    """

    def __init__(self, sampler: Sampler, data: tuple[Any, Any], sequence: np.random.SeedSequence,
                 codes: CategoryCodes) -> None:
        self.sampler, self.data, self.codes = sampler, data, codes
        self._generators = [np.random.default_rng(child) for child in sequence.spawn(2)]
        #: Draws the Poisson prefix sizes
        #: (:func:`~dpverify.auditing._pipeline.engine.prefix_sizes`): child ``(4,)`` of the seed, independent of both sides' outputs and of the chunks'.
        self.prefix_rng = np.random.default_rng(np.random.SeedSequence(
            sequence.entropy, spawn_key=sequence.spawn_key + (4,)))

    def __call__(self, side: int, size: int) -> Any:
        return as_columns(self.sampler(self.data[side], size, self._generators[side]), size,
                          self.codes)

    def end_search(self) -> None:
        self.codes.freeze()
