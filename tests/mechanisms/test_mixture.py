"""The mixture-of-Gaussians mechanism: exact profile, RDP and zCDP maps against independent references."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dpverify.errors import UnsupportedError
from dpverify.guarantees import ZCDP, PrivacyProfile, RDPCurve
from dpverify.mechanisms import (
    Gaussian,
    MixtureOfGaussians,
    gaussian_delta,
    mixture_gaussian_delta,
    mixture_gaussian_rdp,
    privacy_map,
    supported_guarantees,
)


def brute_force_delta(sigma, cs, ps, epsilon):
    """δ(ε) by quadrature of (p(y) − e^ε q(y))₊ and (q(y) − e^ε p(y))₊ over the line."""
    with mpmath.workdps(30):
        s, factor = mpmath.mpf(sigma), mpmath.exp(epsilon)

        def p(y):
            return mpmath.fsum(w * mpmath.npdf(y, c, s) for w, c in zip(ps, cs))

        def q(y):
            return mpmath.npdf(y, 0, s)

        def crossings(f):
            """Sign changes of f on a fine grid, refined by the secant method (the kinks of f₊)."""
            grid = [-12 * s - mpmath.sqrt(2) / 97 + (max(cs) + 24 * s) * j / 400 for j in range(401)]
            roots = []
            for a, b in zip(grid, grid[1:]):
                if f(a) * f(b) < 0:
                    roots.append(mpmath.findroot(f, (a, b), solver="anderson"))
            return roots

        def integral(f):
            cuts = sorted({-40 * s, -12 * s, max(cs) + 12 * s, max(cs) + 40 * s, *crossings(f)})
            return mpmath.quad(lambda y: max(f(y), 0), cuts)

        remove = integral(lambda y: p(y) - factor * q(y))
        add = integral(lambda y: q(y) - factor * p(y))
        return max(remove, add)


def renyi(sigma, cs, ps, alpha):
    """Both directions' D_α by quadrature."""
    with mpmath.workdps(30):
        s = mpmath.mpf(sigma)

        def p(y):
            return mpmath.fsum(w * mpmath.npdf(y, c, s) for w, c in zip(ps, cs))

        def q(y):
            return mpmath.npdf(y, 0, s)

        cuts = [-40 * s, -5 * s, 0, max(cs), max(cs) + 5 * s, max(cs) * alpha + 40 * s]
        forward = mpmath.quad(lambda y: q(y) * (p(y) / q(y)) ** alpha, cuts)
        backward = mpmath.quad(lambda y: p(y) * (q(y) / p(y)) ** alpha, cuts)
        return mpmath.log(forward) / (alpha - 1), mpmath.log(backward) / (alpha - 1)


mixtures = st.tuples(
    st.floats(0.5, 3.0),
    st.lists(st.floats(0.0, 2.5), min_size=1, max_size=3),
    st.lists(st.floats(0.05, 1.0), min_size=3, max_size=3),
).filter(lambda m: max(m[1]) > 0.1)


def _build(sigma, cs, weights):
    weights = weights[:len(cs)]
    total = math.fsum(weights)
    ps = [w / total for w in weights]
    ps[-1] = 1 - math.fsum(ps[:-1])
    return MixtureOfGaussians(sigma, tuple(cs), tuple(ps))


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(mixtures, st.floats(0.0, 2.0))
@example(mixture=(1.0, [0.0, 0.0, 1.0], [1.0, 0.5, 1.0]), epsilon=0.0)   # weights sum to 1 − 5.6e-17
def test_exact_profile_matches_quadrature(mixture, epsilon):
    mechanism = _build(*mixture)
    ours = mixture_gaussian_delta(mechanism, epsilon)
    reference = brute_force_delta(mechanism.sigma, mechanism.sensitivities,
                                  mechanism.probabilities, epsilon)
    with mpmath.workdps(40):   # the quadrature is good to ~1e-20; ours is exact plus 1e-40
        assert ours >= reference * (1 - mpmath.mpf(10) ** -18) - mpmath.mpf(10) ** -25
        assert ours <= reference * (1 + mpmath.mpf(10) ** -12) + mpmath.mpf(10) ** -25


@pytest.mark.slow
def test_one_component_is_the_gaussian_and_sensitivity_scales():
    mechanism = MixtureOfGaussians(2.0, (1.0,), (1.0,))
    for epsilon in (0.0, 0.5, 2.0):
        gap = mixture_gaussian_delta(mechanism, epsilon, sensitivity=3.0) - gaussian_delta(1.5, epsilon)
        assert 0 <= gap < 1.01e-30                                       # its 1e-30 slack
    profile = privacy_map(mechanism, sensitivity=3.0, neighbouring="add-remove")
    assert isinstance(profile, PrivacyProfile)
    gaussian = privacy_map(Gaussian(2.0), sensitivity=3.0, target=PrivacyProfile)
    assert profile.epsilon_for_delta(1e-6) == pytest.approx(gaussian.epsilon_for_delta(1e-6), rel=1e-12)


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(mixtures, st.sampled_from([2.0, 3.5, 8.0]))
def test_rdp_bound_is_above_both_exact_divergences(mixture, alpha):
    mechanism = _build(*mixture)
    bound = mixture_gaussian_rdp(mechanism, (alpha,)).epsilons[0]
    forward, backward = renyi(mechanism.sigma, mechanism.sensitivities, mechanism.probabilities, alpha)
    assert bound >= forward * (1 - 1e-12) - 1e-15 and bound >= backward * (1 - 1e-12) - 1e-15


def test_maps_and_their_relation():
    mechanism = MixtureOfGaussians(1.0, (0.0, 1.0, 2.0), (0.2, 0.6, 0.2))
    assert supported_guarantees(mechanism) == (PrivacyProfile, RDPCurve, ZCDP)
    assert privacy_map(mechanism, neighbouring="add-remove", target=ZCDP) == ZCDP(2.0)
    curve = privacy_map(mechanism, neighbouring="add-remove", target=RDPCurve)
    assert all(e <= a * 2.0 for a, e in zip(curve.orders, curve.epsilons))   # below ZCDP(2)
    with pytest.raises(UnsupportedError, match="neighbouring in \\('add-remove', 'replace-special'\\), "
                                               "not 'replace-one'"):
        privacy_map(mechanism)                      # default relation: replace-one


@pytest.mark.parametrize("kwargs, name", [
    ({"sigma": 0.0, "sensitivities": (1.0,), "probabilities": (1.0,)}, "sigma"),
    ({"sigma": 1.0, "sensitivities": (1.0, -1.0), "probabilities": (0.5, 0.5)}, "sensitivities"),
    ({"sigma": 1.0, "sensitivities": (0.0, 0.0), "probabilities": (0.5, 0.5)}, "sensitivities"),
    ({"sigma": 1.0, "sensitivities": (1.0,), "probabilities": (0.5,)}, "probabilities"),
    ({"sigma": 1.0, "sensitivities": (1.0, 2.0), "probabilities": (1.0,)}, "probabilities"),
    ({"sigma": 1.0, "sensitivities": (), "probabilities": ()}, "sensitivities"),
    ({"sigma": 1.0, "sensitivities": "ab", "probabilities": (1.0,)}, "sensitivities"),
])
def test_refuses_bad_values(kwargs, name):
    """Bad parameters are refused naming them (and out-of-range loss scales by the exact profile)."""
    with pytest.raises((ValueError, TypeError), match=name):
        MixtureOfGaussians(**kwargs)


def test_extreme_epsilon_and_loss_scales():
    mechanism = MixtureOfGaussians(1.0, (0.0, 1.0), (0.5, 0.5))
    assert mixture_gaussian_delta(mechanism, 1e300) <= 1.01e-30       # the threshold is beyond reach
    with pytest.raises(ValueError, match="sensitivity"):
        mixture_gaussian_delta(mechanism, 1.0, sensitivity=1e-300)
