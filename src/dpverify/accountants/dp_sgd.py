"""Old path of :mod:`dpverify.accountants.calibrate.dp_sgd` (DP-SGD accounting and calibration).

The module moved into the ``calibrate`` family; this path re-exports its names so that
imports written for dpverify 0.1 keep working. New code imports from
:mod:`dpverify.accountants.calibrate.dp_sgd`.
"""

from dpverify.accountants.calibrate.dp_sgd import (  # noqa: F401 (re-exported)
    NOISE_MULTIPLIER_RTOL,
    POINTS_PER_STANDARD_DEVIATION,
    default_interval,
    dp_sgd_epsilon,
    min_noise_multiplier,
)
