"""Calibration: the smallest noise (or the largest budget use) that meets an (ε, δ) budget.

Public modules:

* ``noise`` — Gaussian (analytic, classical, composed by PLD or RDP), Laplace and
  binomial noise for a budget, and the ε they give;
* ``discrete`` — the least discrete-Gaussian σ such that every larger σ meets the budget;
* ``dp_sgd`` — DP-SGD: ε of Poisson-subsampled Gaussian steps and the noise multiplier
  for a budget.

Every search returns the passing end of a verified bracket (the private ``_search``);
``_noise_multiplier_search`` seeds DP-SGD's search (speed only, not soundness).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.accountants.calibrate.discrete import min_discrete_gaussian_sigma
    from dpverify.accountants.calibrate.dp_sgd import dp_sgd_epsilon, min_noise_multiplier
    from dpverify.accountants.calibrate.noise import (
        GAUSSIAN_METHODS,  # noqa: F401
        LAPLACE_METHODS,  # noqa: F401
        analytic_gaussian_sigma,
        classical_gaussian_sigma,  # noqa: F401
        gaussian_epsilon,
        laplace_epsilon,
        min_binomial_trials,  # noqa: F401
        min_gaussian_sigma,
        min_laplace_scale,
    )

#: Where each re-exported name lives, imported on first use (``dpverify account gaussian`` loads no DP-SGD or discrete calibration).
_EXPORTS = {
    "min_discrete_gaussian_sigma": "dpverify.accountants.calibrate.discrete",
    **dict.fromkeys(("dp_sgd_epsilon", "min_noise_multiplier"),
                    "dpverify.accountants.calibrate.dp_sgd"),
    **dict.fromkeys(("GAUSSIAN_METHODS", "LAPLACE_METHODS", "analytic_gaussian_sigma",
                     "classical_gaussian_sigma", "gaussian_epsilon", "laplace_epsilon",
                     "min_binomial_trials", "min_gaussian_sigma", "min_laplace_scale"),
                    "dpverify.accountants.calibrate.noise"),
}

# ``__all__`` lists the names ``dpverify.accountants`` exports from this family. The names
# marked above are the other public names of the 0.1 module of this path, importable from here
# as before and documented in the public module that defines them.
__all__ = [
    "analytic_gaussian_sigma",
    "gaussian_epsilon",
    "laplace_epsilon",
    "min_gaussian_sigma",
    "min_laplace_scale",
    "min_noise_multiplier",
    "dp_sgd_epsilon",
    "min_discrete_gaussian_sigma",
]

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, submodules=True)
