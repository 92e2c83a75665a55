"""Exact laws of the integer noise mechanisms: normalisation, cdf/pmf agreement, moments,
independent constructions (geometric / Poisson convolutions, Poisson summation), and the
Pólya-difference law whose aggregate is the discrete Laplace (Chowdhury & Zhou 2023, Fact 1
and footnote 3, whose Gamma scale the authors' public code inverts)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from dpverify.mechanisms.discrete import (
    BinomialNoise,
    DiscreteGaussian,
    DiscreteLaplace,
    PolyaDifference,
    ShiftedLaw,
    Skellam,
    _gaussian_series,
    discrete_gaussian_normaliser,
)

INFINITE_LAWS = [
    (DiscreteLaplace(2.0), 200),
    (DiscreteLaplace(0.3), 60),
    (DiscreteGaussian(0.4), 20),
    (DiscreteGaussian(3.0), 60),
    (Skellam(0.7), 40),
    (Skellam(6.0), 80),
    (PolyaDifference(3, 1.0), 100),
]
IDS = [repr(law) for law, _ in INFINITE_LAWS]


@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


@pytest.mark.slow
@pytest.mark.parametrize("law, width", INFINITE_LAWS, ids=IDS)
def test_pmf_sums_to_one(law, width: int) -> None:
    """Σ_{|k|<=K} pmf + P[X < −K] + P[X > K] = 1 to 1e-25, and the truncated sum alone to 1e-12."""
    window = mpmath.fsum(law.pmf(k) for k in range(-width, width + 1))
    assert abs(window + law.cdf(-width - 1) + law.sf(width) - 1) < 1e-25
    assert abs(window - 1) < 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("law, width", INFINITE_LAWS, ids=IDS)
def test_cdf_and_pmf_agree(law, width: int) -> None:
    for k in (-7, -1, 0, 1, 4):
        assert abs(law.cdf(k) - law.cdf(k - 1) - law.pmf(k)) < 1e-30
        assert abs(law.cdf(k) + law.sf(k) - 1) < 1e-30
    assert law.cdf(0.5) == law.cdf(0) and law.pmf(0.5) == 0
    assert law.logpmf(0.5) == mpmath.ninf
    assert abs(mpmath.exp(law.logpmf(3)) - law.pmf(3)) < 1e-40


@pytest.mark.slow
@pytest.mark.parametrize("law, width", INFINITE_LAWS, ids=IDS)
def test_moments_match_the_pmf(law, width: int) -> None:
    second = mpmath.fsum(k * k * law.pmf(k) for k in range(-width, width + 1))
    assert law.mean() == 0
    assert abs(second - law.variance()) < 1e-10 * law.variance()


@pytest.mark.parametrize("law, width", INFINITE_LAWS + [(BinomialNoise(9, 0.3), 10)],
                         ids=IDS + ["binomial"])
def test_float_pmf_array_matches_exact_pmf(law, width: int) -> None:
    points = [Fraction(k) - (law._offset() % 1 if isinstance(law, BinomialNoise) else 0)
              for k in range(-12, 13)]
    exact = np.array([float(law.pmf(k)) for k in points])
    ks = np.array([float(k) for k in points])
    np.testing.assert_allclose(law.pmf_array(ks), exact, rtol=1e-9, atol=1e-300)
    assert exact.max() > 0.05 and not np.any(law.pmf_array(ks + 0.5))  # 0 off the lattice


def test_discrete_laplace_is_a_difference_of_geometrics() -> None:
    """P[G1 − G2 = k] = Σ_j (1−β)²β^{j+k}β^j, summed in closed form independently."""
    law, beta = DiscreteLaplace(1.5), mpmath.exp(-1 / mpmath.mpf(1.5))
    for k in (0, 1, 5):
        assert abs(law.pmf(k) - (1 - beta) ** 2 * beta ** k / (1 - beta ** 2)) < 1e-45
        assert law.pmf(-k) == law.pmf(k)


@pytest.mark.parametrize("sigma", [1.0, 1.7, 6.0])
def test_discrete_gaussian_normaliser_poisson_summation_equals_direct_sum(sigma: float) -> None:
    direct = 2 * _gaussian_series(1 / (2 * mpmath.mpf(sigma) ** 2), 0) - 1
    assert abs(discrete_gaussian_normaliser(sigma) - direct) < 1e-40 * direct


def test_discrete_gaussian_variance_is_below_sigma_squared() -> None:
    """CKS 2020 Prop. 19: Var < σ², and → σ² quickly as σ grows."""
    for sigma in (0.5, 1.0, 3.0):
        variance = DiscreteGaussian(sigma).variance()
        assert variance < sigma ** 2
    assert abs(DiscreteGaussian(3.0).variance() - 9) < 1e-60 + 1e-30


def test_skellam_is_a_difference_of_poissons() -> None:
    mu = mpmath.mpf(2.5)
    poisson = [mpmath.exp(-mu) * mu ** j / mpmath.factorial(j) for j in range(120)]
    law = Skellam(2.5)
    for k in (0, 1, 3, 9):
        direct = mpmath.fsum(poisson[j + k] * poisson[j] for j in range(120 - k))
        assert abs(law.pmf(k) - direct) < 1e-40
        assert law.pmf(-k) == law.pmf(k)


def _share_convolution(share: PolyaDifference, width: int) -> list:
    """pmf of the sum of ``share.shares`` i.i.d. shares on [−width, width], by repeated convolution."""
    base = {k: share.pmf(k) for k in range(-width, width + 1)}
    total = {0: mpmath.mpf(1)}
    for _ in range(share.shares):
        new = {}
        for a, pa in total.items():
            for b, pb in base.items():
                if abs(a + b) <= width:
                    new[a + b] = new.get(a + b, 0) + pa * pb
        total = new
    return total


@pytest.mark.slow
def test_sum_of_polya_shares_is_discrete_laplace_exactly() -> None:
    """Goryczka & Xiong Thm 5.1: the sum of 3 PolyaDifference(3, 1) shares has the Lap_Z(1) pmf.

    Truncation at |k| <= 45 loses at most 3·P[|share| > 45] < 1e-18 of each value.
    """
    share = PolyaDifference(shares=3, scale=1.0)
    total, target = _share_convolution(share, 45), DiscreteLaplace(1.0)
    for k in (0, 1, -2, 6):
        assert abs(total[k] - target.pmf(k)) < 1e-16
    assert abs(3 * share.variance() - target.variance()) < 1e-40


def _aggregate_pmf(share: PolyaDifference, ks: np.ndarray, size: int = 4096) -> np.ndarray:
    """Float pmf of the sum of ``share.shares`` shares, by the power of the share's DFT."""
    grid = np.arange(-(size // 2), size // 2)
    spectrum = np.fft.fft(np.fft.ifftshift(share.pmf_array(grid)))
    aggregate = np.fft.fftshift(np.real(np.fft.ifft(spectrum ** share.shares)))
    return aggregate[ks + size // 2]


def test_sum_of_64_shares_against_inverted_gamma_scale() -> None:
    """n = 64, ε = 0.5, g = 4, β = e^{−1/8} (Chowdhury & Zhou 2023, Thm 1's noise).

    The correct Pólya law (Gamma scale β/(1−β)) aggregates to Lap_Z(8): variance 127.8
    and the Lap_Z(8) pmf. The public reference code's Gamma scale (1−β)/β is Pólya(r, 1−β),
    i.e. a PolyaDifference with scale −1/log(1−β): its aggregate has variance 0.30.
    """
    beta = math.exp(-0.5 / 4)
    correct = PolyaDifference(shares=64, scale=8.0)
    inverted = PolyaDifference(shares=64, scale=-1 / math.log(1 - beta))
    target = DiscreteLaplace(8.0)
    ks = np.arange(-40, 41)
    np.testing.assert_allclose(_aggregate_pmf(correct, ks), target.pmf_array(ks), rtol=1e-9, atol=1e-15)
    assert float(64 * correct.variance()) == pytest.approx(127.83, abs=0.01)
    assert float(64 * inverted.variance()) == pytest.approx(0.30, abs=0.005)
    assert float(64 * inverted.variance()) == pytest.approx(2 * (1 - beta) / beta ** 2, rel=1e-12)
    assert _aggregate_pmf(inverted, np.array([0]))[0] > 0.7 > 10 * float(target.pmf(0))


def test_binomial_law_is_exact_and_rational() -> None:
    law = BinomialNoise(trials=10)
    values = [law.pmf(k) for k in range(-5, 6)]
    assert all(isinstance(v, Fraction) for v in values) and sum(values) == 1
    assert law.support() == (-5, 5) and law.cdf(5) == 1 and law.cdf(-6) == 0
    assert law.cdf(0) - law.cdf(-1) == law.pmf(0) == Fraction(252, 1024)
    assert law.variance() == Fraction(5, 2) and law.sf(0) == 1 - law.cdf(0)
    assert sum(k * k * law.pmf(k) for k in range(-5, 6)) == law.variance()


def test_binomial_with_non_integer_centre() -> None:
    law = BinomialNoise(trials=3, probability=0.25)
    low, high = law.support()
    assert low == Fraction(-3, 4) and high == Fraction(9, 4)
    assert sum(law.pmf(low + j) for j in range(4)) == 1 and law.pmf(0) == 0
    assert law.mean() == sum((low + j) * law.pmf(low + j) for j in range(4)) == 0


@pytest.mark.parametrize("law", [DiscreteLaplace(1.0), DiscreteGaussian(2.0), Skellam(1.0),
                                 BinomialNoise(6)])
def test_law_on_shifts_the_noise(law) -> None:
    output = law.law_on(7)
    assert isinstance(output, ShiftedLaw)
    assert output.pmf(8) == law.pmf(1) and output.cdf(5) == law.cdf(-2) and output.sf(9) == law.sf(2)
    assert output.mean() == 7 and output.variance() == law.variance()
    np.testing.assert_array_equal(output.pmf_array(np.array([6, 7])), law.pmf_array(np.array([-1, 0])))


@pytest.mark.parametrize("call, name, error", [
    (lambda: DiscreteLaplace(0.0), "scale", ValueError),
    (lambda: DiscreteLaplace(math.inf), "scale", ValueError),
    (lambda: DiscreteGaussian(math.nan), "sigma", ValueError),
    (lambda: Skellam(-1.0), "mu", ValueError),
    (lambda: PolyaDifference(0, 1.0), "shares", ValueError),
    (lambda: PolyaDifference(2, "1"), "scale", TypeError),
    (lambda: BinomialNoise(0), "trials", ValueError),
    (lambda: BinomialNoise(4, 1.0), "probability", ValueError),
    (lambda: DiscreteLaplace(1.0).law_on(0.5), "x", ValueError),
    (lambda: DiscreteGaussian(1.0).pmf("3"), "outcome", TypeError),
    (lambda: Skellam(1.0).cdf(math.nan), "outcome", ValueError),
])
def test_invalid_arguments_name_the_parameter(call, name: str, error: type) -> None:
    with pytest.raises(error, match=name):
        call()
