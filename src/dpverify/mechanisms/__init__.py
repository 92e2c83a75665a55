"""What a mechanism is: exact laws, privacy maps and samplers (no accountants, no RNG state).

* Laws: :mod:`~dpverify.mechanisms.continuous` (Laplace, Gaussian),
  :mod:`~dpverify.mechanisms.discrete` (discrete Laplace and Gaussian, Skellam,
  Pólya difference, binomial), :mod:`~dpverify.mechanisms.mixture` (mixture of Gaussians),
  :mod:`~dpverify.mechanisms.truncated_discrete_gaussian`, :mod:`~dpverify.mechanisms.randomized_response`,
  :mod:`~dpverify.mechanisms.encoding` (the papers' local encoders and
  the M_LDP of Garcelon et al. 2022), :mod:`~dpverify.mechanisms.protocols` (shuffler, secure
  aggregation, binary and vector summation).
* Privacy maps: :func:`privacy_map` (a registry keyed by mechanism and
  guarantee type).
* Sampling: exact integer samplers in :mod:`~dpverify.mechanisms.samplers`,
  float ones in :mod:`~dpverify.mechanisms.simulation` (simulation only), and the
  dispatch :func:`sample` / :func:`sample_aggregate`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpverify._lazy import lazy_exports

if TYPE_CHECKING:  # the static view of the lazy re-exports below
    from dpverify.mechanisms._noise_maps import (
        MAX_BINOMIAL_TRIALS,
        binomial_noise_delta,
        discrete_gaussian_delta,
        discrete_laplace_delta,
        skellam_rdp,
    )
    from dpverify.mechanisms.continuous import (
        Gaussian,
        Laplace,
        gaussian_delta,
        gaussian_privacy_profile,
        laplace_delta,
        laplace_privacy_profile,
    )
    from dpverify.mechanisms.discrete import (
        BinomialNoise,
        DiscreteGaussian,
        DiscreteLaplace,
        PolyaDifference,
        Skellam,
        discrete_gaussian_normaliser,
    )
    from dpverify.mechanisms.encoding import (
        LocalPrivatizer,
        m_ldp,
        mldp_randomization_probability,
        randomized_rounding,
        unary_encoding,
    )
    from dpverify.mechanisms.mixture import (
        MixtureOfGaussians,
        mixture_gaussian_delta,
        mixture_gaussian_rdp,
    )
    from dpverify.mechanisms.privacy_maps import (
        pmf_pair_profile,
        privacy_map,
        register_privacy_map,
        supported_guarantees,
    )
    from dpverify.mechanisms.protocols import (
        BinarySummation,
        NoisyBitSummation,
        SecureAggregation,
        Shuffler,
        VectorSummation,
        secure_aggregation_modulus,
        vector_summation_parameters,
    )
    from dpverify.mechanisms.randomized_response import (
        BinaryRandomizedResponse,
        RandomizedResponse,
        binary_randomization_probability,
    )
    from dpverify.mechanisms.sampling import register_sampler, sample, sample_aggregate, sample_users
    from dpverify.mechanisms.truncated_discrete_gaussian import (
        TruncatedDiscreteGaussian,
        truncated_discrete_gaussian_delta,
    )

#: Where each re-exported name lives, imported on first use (an accountant that needs one law loads only that law's module).
_EXPORTS = {
    **dict.fromkeys(("MAX_BINOMIAL_TRIALS", "binomial_noise_delta", "discrete_gaussian_delta",
                     "discrete_laplace_delta", "skellam_rdp"),
                    "dpverify.mechanisms._noise_maps"),
    **dict.fromkeys(("Gaussian", "Laplace", "gaussian_delta", "gaussian_privacy_profile",
                     "laplace_delta", "laplace_privacy_profile"),
                    "dpverify.mechanisms.continuous"),
    **dict.fromkeys(("BinomialNoise", "DiscreteGaussian", "DiscreteLaplace",
                     "PolyaDifference", "Skellam", "discrete_gaussian_normaliser"),
                    "dpverify.mechanisms.discrete"),
    **dict.fromkeys(("LocalPrivatizer", "m_ldp", "mldp_randomization_probability",
                     "randomized_rounding", "unary_encoding"),
                    "dpverify.mechanisms.encoding"),
    **dict.fromkeys(("MixtureOfGaussians", "mixture_gaussian_delta", "mixture_gaussian_rdp"),
                    "dpverify.mechanisms.mixture"),
    **dict.fromkeys(("pmf_pair_profile", "privacy_map", "register_privacy_map",
                     "supported_guarantees"),
                    "dpverify.mechanisms.privacy_maps"),
    **dict.fromkeys(("BinarySummation", "NoisyBitSummation", "SecureAggregation",
                     "Shuffler", "VectorSummation", "secure_aggregation_modulus",
                     "vector_summation_parameters"),
                    "dpverify.mechanisms.protocols"),
    **dict.fromkeys(("BinaryRandomizedResponse", "RandomizedResponse",
                     "binary_randomization_probability"),
                    "dpverify.mechanisms.randomized_response"),
    **dict.fromkeys(("register_sampler", "sample", "sample_aggregate", "sample_users"),
                    "dpverify.mechanisms.sampling"),
    **dict.fromkeys(("TruncatedDiscreteGaussian", "truncated_discrete_gaussian_delta"),
                    "dpverify.mechanisms.truncated_discrete_gaussian"),
}

__all__ = [
    # laws
    "Laplace",
    "Gaussian",
    "DiscreteLaplace",
    "DiscreteGaussian",
    "Skellam",
    "PolyaDifference",
    "BinomialNoise",
    "MixtureOfGaussians",
    "TruncatedDiscreteGaussian",
    "BinaryRandomizedResponse",
    "RandomizedResponse",
    "binary_randomization_probability",
    # encoders and the papers' local privatizer
    "randomized_rounding",
    "unary_encoding",
    "LocalPrivatizer",
    "m_ldp",
    "mldp_randomization_probability",
    # protocols
    "Shuffler",
    "SecureAggregation",
    "secure_aggregation_modulus",
    "BinarySummation",
    "NoisyBitSummation",
    "VectorSummation",
    "vector_summation_parameters",
    # privacy maps and exact profiles
    "privacy_map",
    "register_privacy_map",
    "supported_guarantees",
    "pmf_pair_profile",
    "gaussian_delta",
    "gaussian_privacy_profile",
    "laplace_delta",
    "laplace_privacy_profile",
    "discrete_laplace_delta",
    "discrete_gaussian_delta",
    "discrete_gaussian_normaliser",
    "binomial_noise_delta",
    "MAX_BINOMIAL_TRIALS",
    "skellam_rdp",
    "mixture_gaussian_delta",
    "mixture_gaussian_rdp",
    "truncated_discrete_gaussian_delta",
    # sampling
    "sample",
    "sample_aggregate",
    "sample_users",
    "register_sampler",
]

# 0.1 names, deprecated for one release (a misnomer: p is not the flip probability p/2).
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS, submodules=True,
                                    renamed={"binary_flip_probability": "binary_randomization_probability",
                                              "mldp_flip_probability": "mldp_randomization_probability"})
