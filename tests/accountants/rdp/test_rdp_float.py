"""The float fast path of the subsampled-Gaussian RDP: its assumptions, and bounds >= exact values."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import gammaln, log_ndtr

from dpverify.accountants._subsampled_gaussian_float import log_moments_upper_float, log_ndtr_error
from dpverify.accountants.rdp import DEFAULT_ORDERS
from dpverify.accountants.rdp._subsampled_gaussian import log_moment_upper

_U = 2.0 ** -53


@pytest.mark.slow
def test_log_ndtr_within_the_assumed_error():
    """The assumption of the float path, against mpmath at 60 digits (measured: <= 0.26 of it)."""
    zs = np.concatenate([np.linspace(-40, 0, 401), np.linspace(0, 38.5, 401),
                         np.random.default_rng(3).uniform(-40, 38.5, 400)])
    with mpmath.workdps(60):
        exact = np.array([float(mpmath.log1p(-mpmath.ncdf(-mpmath.mpf(z))) if z > 0
                                else mpmath.log(mpmath.ncdf(mpmath.mpf(z)))) for z in zs])
        errors = np.array([float(abs(mpmath.mpf(float(v)) - (mpmath.log1p(-mpmath.ncdf(-mpmath.mpf(z)))
                                                            if z > 0 else mpmath.log(mpmath.ncdf(mpmath.mpf(z))))))
                           for z, v in zip(zs, log_ndtr(zs))])
    assert np.all(errors <= 0.5 * log_ndtr_error(zs, exact))


def test_gammaln_within_the_assumed_error():
    xs = np.concatenate([np.linspace(0.5, 3.5, 601), 2 + np.logspace(-15, -1, 50),
                         1 - np.logspace(-15, -1, 50), np.linspace(3.5, 1100, 300),
                         0.5 - np.linspace(0.01, 60, 300)])
    with mpmath.workdps(50):
        for x, value in zip(xs, gammaln(xs)):
            exact = mpmath.log(abs(mpmath.gamma(mpmath.mpf(float(x)))))
            assert abs(mpmath.mpf(float(value)) - exact) <= 0.5 * (16 * _U * abs(exact) + 1e-15)


def _quadrature_log_moment(q: float, sigma: float, alpha: float) -> float:
    with mpmath.workdps(30):
        q_, s_, a_ = mpmath.mpf(q), mpmath.mpf(sigma), mpmath.mpf(alpha)

        def integrand(z):
            return mpmath.npdf(z, 0, s_) * ((1 - q_) + q_ * mpmath.exp((2 * z - 1) / (2 * s_ ** 2))) ** a_

        return float(mpmath.log(mpmath.quad(integrand, [-mpmath.inf, -10 * s_, 0, 1, 10 * s_ + 1,
                                                        mpmath.inf])))


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.floats(1e-3, 0.9), st.floats(0.5, 5.0), st.floats(1.01, 10.9))
def test_fractional_orders_bound_quadrature(q, sigma, alpha):
    value = log_moments_upper_float(q, sigma, [alpha])[0]
    if math.isnan(value):   # left to mpmath: nothing to check here
        return
    exact = _quadrature_log_moment(q, sigma, alpha)
    assert exact * (1 - 1e-12) <= value <= exact * (1 + 1e-7) + 1e-300


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.floats(1e-4, 0.99), st.floats(0.3, 8.0), st.integers(2, 300))
def test_integer_orders_bound_the_exact_expansion(q, sigma, alpha):
    value = log_moments_upper_float(q, sigma, [float(alpha)])[0]
    exact = float(log_moment_upper(q, sigma, float(alpha)))   # exact to 1e-15 (mpmath)
    assert exact * (1 - 1e-14) <= value <= exact * (1 + 1e-9)


@pytest.mark.parametrize("q, sigma", [(256 / 60000, 1.1), (0.01, 1.0), (0.1, 0.8)])
def test_dp_sgd_curves_need_no_mpmath(q, sigma):
    values = log_moments_upper_float(q, sigma, DEFAULT_ORDERS)
    assert not np.isnan(values).any()
