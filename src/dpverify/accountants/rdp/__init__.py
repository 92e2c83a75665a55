"""Rényi DP: RDP curves of mechanisms, their composition, subsampling, and conversion to (ε, δ)-DP.

Public modules:

* ``curves`` — the curves of the Gaussian, Laplace, randomized response, pure ε and the
  Poisson-subsampled Gaussian (:data:`DEFAULT_ORDERS`); composition (:func:`compose_rdp`,
  :func:`scale_rdp`) and the conversions to (ε, δ) (:func:`rdp_to_dp`,
  :func:`rdp_to_dp_delta`) from the private ``_composition`` and ``_conversions``;
* ``subsampling`` — amplification by Poisson subsampling and by sampling without
  replacement for any mechanism with an RDP curve (Zhu & Wang 2019; Wang, Balle &
  Kasiviswanathan 2019), with the moment bounds of ``_subsampling_moments``;
* ``subsampling_pairs`` — Poisson subsampling of a finite dominating pair, exact at
  every order;
* ``repeat_select`` — repeat-and-select (Papernot & Steinke 2022).

``_subsampled_gaussian`` holds the subsampled Gaussian's Rényi moments in mpmath (their
float twin, shared with DP-SGD's search, is :mod:`dpverify.accountants._subsampled_gaussian_float`).
Soundness: ``docs/proofs/rdp_conversions.md``.
"""

from dpverify.accountants.rdp.curves import (
    DEFAULT_ORDERS,
    compose_rdp,
    gaussian_rdp,
    laplace_rdp,
    pure_dp_rdp,
    randomized_response_rdp,
    rdp_to_dp,
    rdp_to_dp_delta,
    scale_rdp,
    subsampled_gaussian_rdp,
)
from dpverify.accountants.rdp.repeat_select import repeat_and_select_rdp
from dpverify.accountants.rdp.subsampling import (
    poisson_subsampled_laplace_rdp,
    poisson_subsampled_rdp,
    without_replacement_gaussian_rdp,
    without_replacement_rdp,
)
from dpverify.accountants.rdp.subsampling_pairs import poisson_subsampled_pair_rdp

__all__ = [
    "DEFAULT_ORDERS",
    "gaussian_rdp",
    "laplace_rdp",
    "randomized_response_rdp",
    "pure_dp_rdp",
    "subsampled_gaussian_rdp",
    "compose_rdp",
    "scale_rdp",
    "rdp_to_dp",
    "rdp_to_dp_delta",
    "poisson_subsampled_rdp",
    "poisson_subsampled_laplace_rdp",
    "poisson_subsampled_pair_rdp",
    "without_replacement_rdp",
    "without_replacement_gaussian_rdp",
    "repeat_and_select_rdp",
]
