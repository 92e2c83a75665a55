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
* ``repeat_select`` — repeat-and-select (Papernot & Steinke 2022);
* ``truncated_poisson`` — the Gaussian on a Poisson sample capped at B records;
* ``bounded_range`` — the exact curve of ε-bounded-range mechanisms (the exponential
  mechanism; Cesar & Rogers 2021's two-point worst case, maximised in closed form).

``_subsampled_gaussian`` holds the subsampled Gaussian's Rényi moments in mpmath (their
float twin, shared with DP-SGD's search, is :mod:`dpverify.accountants._subsampled_gaussian_float`).
Soundness: ``docs/proofs/rdp_conversions.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.accountants.rdp.bounded_range import bounded_range_kl, bounded_range_rdp
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
    from dpverify.accountants.rdp.truncated_poisson import truncated_poisson_gaussian_rdp

#: Where each re-exported name lives, imported on first use (a curve's conversion loads no subsampling modules).
_EXPORTS = {
    **dict.fromkeys(("DEFAULT_ORDERS", "compose_rdp", "gaussian_rdp", "laplace_rdp",
                     "pure_dp_rdp", "randomized_response_rdp", "rdp_to_dp",
                     "rdp_to_dp_delta", "scale_rdp", "subsampled_gaussian_rdp"),
                    "dpverify.accountants.rdp.curves"),
    "repeat_and_select_rdp": "dpverify.accountants.rdp.repeat_select",
    **dict.fromkeys(("bounded_range_rdp", "bounded_range_kl"), "dpverify.accountants.rdp.bounded_range"),
    **dict.fromkeys(("poisson_subsampled_laplace_rdp", "poisson_subsampled_rdp",
                     "without_replacement_gaussian_rdp", "without_replacement_rdp"),
                    "dpverify.accountants.rdp.subsampling"),
    "poisson_subsampled_pair_rdp": "dpverify.accountants.rdp.subsampling_pairs",
    "truncated_poisson_gaussian_rdp": "dpverify.accountants.rdp.truncated_poisson",
}

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
    "bounded_range_rdp",
    "bounded_range_kl",
    "truncated_poisson_gaussian_rdp",
]

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, submodules=True)
