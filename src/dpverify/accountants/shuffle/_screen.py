"""A cheap, sound "clearly fails" screen for the shuffle searches (private helper of ``shuffle``).

Every registered amplification bound is an *upper* bound on the true ε(δ) of the shuffled
randomizer (for the generic bounds: of every ε0-LDP randomizer, binary randomized response
at ε0 included). A *lower* bound on that true ε therefore proves, without evaluating any
bound, that none of them can meet a budget below it. This module gives one in O(1) mpmath
operations: the total variation of one neighbouring pair of shuffled histograms.

Take replace-one neighbours that differ in user 1's input (0 → 1), every other user
holding 0, and look only at the number K of reports equal to 1 (post-processing can only
lower δ). With a = P(report 1 | input 1) > b = P(report 1 | input 0), the other n − 1
users' reports are W ~ Bin(n − 1, b), and user 1's is Bern(b) or Bern(a), so the laws of
K differ by ``(a − b)(L(W + 1) − L(W))`` and

.. math::

    \\mathrm{TV} = (a - b)\\,\\mathrm{TV}(W, W + 1) = (a - b) \\max_k P(W = k)

(a binomial is unimodal). For any t >= 0,
``δ(t) = sup_S P(S) − e^t Q(S) >= TV − (e^t − 1)``, so when ``TV − (e^t − 1) > δ`` the
true ε(δ) exceeds t, and every sound bound does too.

**Soundness:** the mode probability is computed in mpmath at ample precision and rounded
*down* (a relative slack of 1e-25, far above the error of the log-gamma evaluation at these
precisions), ``e^t − 1`` is rounded *up*, and the comparison is strict: a "fails" from
here is proven; a "cannot tell" (False) decides nothing, and the caller evaluates the bound.
"""

from __future__ import annotations

import mpmath

from dpverify.mechanisms.randomized_response import BinaryRandomizedResponse, RandomizedResponse

__all__ = ["clearly_fails"]

#: Relative slack taken off the computed total variation (rounding it down).
_SLACK = mpmath.mpf("1e-25")


def _report_probabilities(local_epsilon: float, randomizer: object) -> tuple[mpmath.mpf, ...]:
    """(a, b): the probability of report 1 on input 1 and on input 0."""
    if isinstance(randomizer, BinaryRandomizedResponse):
        p = mpmath.mpf(randomizer.randomization_probability)
        return 1 - p / 2, p / 2
    if isinstance(randomizer, RandomizedResponse):
        scale = mpmath.exp(mpmath.mpf(randomizer.epsilon))
        categories = randomizer.categories
    else:  # a generic ε0-LDP randomizer: binary randomized response at ε0 is one of them
        scale, categories = mpmath.exp(mpmath.mpf(local_epsilon)), 2
    total = scale + categories - 1
    return scale / total, 1 / total


def _mode_probability(trials: int, b: mpmath.mpf) -> mpmath.mpf:
    """max_k P(Bin(trials, b) = k), at the mode ⌊(trials + 1) b⌋."""
    if trials == 0 or b == 0:
        return mpmath.mpf(1)
    mode = min(int(mpmath.floor((trials + 1) * b)), trials)
    log_pmf = (
        mpmath.loggamma(trials + 1)
        - mpmath.loggamma(mode + 1)
        - mpmath.loggamma(trials - mode + 1)
        + mode * mpmath.log(b)
        + (trials - mode) * mpmath.log1p(-b)
    )
    return mpmath.exp(log_pmf)


def clearly_fails(local_epsilon: float, n: int, delta: float, randomizer: object, target: float) -> bool:
    """Whether the true ε(``delta``) of the shuffled randomizer provably exceeds ``target``.

    True means every sound amplification bound is above ``target`` (module docstring);
    False decides nothing. ``randomizer`` is ``None`` (generic ε0-LDP at ``local_epsilon``),
    a :class:`BinaryRandomizedResponse` or a :class:`RandomizedResponse`.

    >>> clearly_fails(1.0, 1000, 1e-6, None, 1e-300)
    True
    >>> clearly_fails(1.0, 1000, 1e-6, None, 1.0)
    False
    """
    # digits: the log-gamma terms reach n·log n, so n's digits are lost to cancellation
    with mpmath.workdps(50 + len(str(n))):
        a, b = _report_probabilities(local_epsilon, randomizer)
        if not a > b:
            return False
        total_variation = (a - b) * _mode_probability(n - 1, b) * (1 - _SLACK)
        with mpmath.workdps(mpmath.mp.dps + 10):
            slack_up = mpmath.expm1(mpmath.mpf(target)) * (1 + _SLACK)
        return bool(total_variation - slack_up > mpmath.mpf(delta))
