"""Privacy amplification by shuffling: the bounds, their inverses, and the papers' own forms.

Public modules:

* ``amplification`` — the registry of bounds (:data:`SHUFFLE_BOUNDS`,
  :func:`register_shuffle_bound`), the forward bounds :func:`amplified_epsilon` /
  :func:`amplified_delta`, the inverse problems :func:`max_local_epsilon(s)
  <max_local_epsilons>`, :func:`min_batch_size`, and the exact privacy of shuffled binary
  randomized response (:func:`shuffled_binary_rr_epsilon`, :func:`shuffled_binary_rr_delta`,
  :func:`min_randomization_probability`);
* ``papers`` — the shuffle-model papers' own computations (garcelon, hanna, tenenbaum).

Private: ``_bounds`` (the :class:`ShuffleBound` registry and the evaluation of one bound),
``_closed_forms`` (the closed forms and their validity conditions), ``_numerical`` and
``_clone_kernel`` (FMT's clones and the variation-ratio bound, with rigorous error),
``_exact`` (exact shuffled binary RR). Soundness: ``docs/proofs/shuffle.md``.
"""

from dpverify._deprecation import renamed_attributes
from dpverify.accountants.shuffle.amplification import (
    SHUFFLE_BOUNDS,  # noqa: F401 (0.1 name, see below)
    ShuffleBound,  # noqa: F401 (0.1 name, see below)
    amplified_delta,
    amplified_epsilon,
    max_local_epsilon,
    max_local_epsilons,  # noqa: F401 (0.1 name, see below)
    min_batch_size,
    min_randomization_probability,
    register_shuffle_bound,  # noqa: F401 (0.1 name, see below)
    shuffled_binary_rr_delta,
    shuffled_binary_rr_epsilon,
)

# ``__all__`` lists the names ``dpverify.accountants`` exports from this family. The names
# marked above are the other public names of the 0.1 module of this path, importable from here
# as before and documented in the public module that defines them.
__all__ = [
    "amplified_epsilon",
    "amplified_delta",
    "max_local_epsilon",
    "min_batch_size",
    "shuffled_binary_rr_delta",
    "shuffled_binary_rr_epsilon",
    "min_randomization_probability",
]

# 0.1 names, deprecated for one release (a misnomer: p is not the flip probability p/2).
__getattr__ = renamed_attributes(__name__, {
    "min_flip_probability": ("min_randomization_probability", min_randomization_probability)})
