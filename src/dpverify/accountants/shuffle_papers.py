"""Old path of :mod:`dpverify.accountants.shuffle.papers` (the shuffle-model papers' own computations).

The module moved into the ``shuffle`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.shuffle.papers`.
"""

from dpverify.accountants.shuffle.papers import (  # noqa: F401 (re-exported)
    GARCELON_COMPOSITIONS,
    TENENBAUM_BATCH_READINGS,
    garcelon_batch_length_ok,
    garcelon_per_batch_epsilon,
    garcelon_total_guarantee,
    hanna_local_epsilons,
    hanna_shuffle_epsilon,
    min_shuffler_batch_length,
    tenenbaum_batch_size,
    tenenbaum_msum_sigma,
    tenenbaum_noise_bits,
)
