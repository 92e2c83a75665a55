"""The papers' algebra re-derived with sympy, from the lemmas each claim rests on.

Every function returns a :class:`Derivation`: the steps as readable text (shown
in the claims report), the derived expression, the printed one, whether they
agree, and ``evaluate`` — the derived quantity as a plain numeric function, so
that tests can hold it against the library's own implementation of the same
quantity (``tests/claims/test_claims_symbolic.py``, hypothesis).

* :func:`garcelon_batch_condition` — Garcelon et al. 2022, Thm 5's Eq. (3) from Prop. 13
  and advanced composition: ``2 − 2p + 2√(2p log(2mT/δ0)/l)``, not the printed
  ``1 − 2p + 2√(2 log(2mT/δ0)/l)``;
* :func:`tenenbaum_batch_size` — the batch size that makes Thm 3.1 give
  Cor. 3.2's bound: ``m = ⌈σ²⌉``, not the printed ``⌈σ⌉``;
* :func:`hanna_shuffle_inverse` — Hanna et al. 2022, Eq. (10) (FMT 2021) as a quartic in
  ``u = e^{ε0/2}`` and its validity region ``ε0 <= ln(n/(16 ln(2/δ)))``;
* :func:`chowdhury_protocol_constants` — Chowdhury & Zhou 2023, Thm 1's ``(g, τ, m)`` from
  the discrete Laplace tail and the modular range;
* :func:`chowdhury_skellam_rdp` — Chowdhury & Zhou's Thm 2 uniform RDP bound from
  Agarwal–Kairouz–Liu's Skellam bound at g = sε√n (its supremum over n is n = 1);
* :func:`chowdhury_inverted_polya` — the variance the public code's inverted
  Pólya scale delivers, and the ε it really gives;
* :func:`dpdpe_shuffle_variance` — the analyser's error of Li, Zhou & Ji 2022, Alg. 2, with
  Eq. (22)'s constants, against Thm 9's printed ``O(Δ ln(s/δ)/(ε²|U|²))``.

The derivations are exact symbolic manipulations (``sympy.solve``,
``simplify``, ``series``); ``evaluate`` lambdifies the result with mpmath.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

__all__ = [
    "Derivation",
    "garcelon_batch_condition",
    "tenenbaum_batch_size",
    "hanna_shuffle_inverse",
    "chowdhury_protocol_constants",
    "chowdhury_inverted_polya",
    "chowdhury_skellam_rdp",
    "dpdpe_shuffle_variance",
]


@dataclass(frozen=True)
class Derivation:
    """A re-derivation: ``steps`` (text), ``derived`` vs ``printed`` (sympy), ``agrees``.

    ``evaluate(**values)`` computes the derived quantity numerically (mpmath).
    """

    title: str
    steps: tuple[str, ...]
    derived: Any
    printed: Any
    agrees: bool
    evaluate: Callable[..., Any]

    def text(self) -> str:
        """The derivation as it appears in the report (one step a line)."""
        lines = [self.title, ""] + [f"{i}. {step}" for i, step in enumerate(self.steps, 1)]
        lines += ["", f"derived: {sp.sstr(self.derived)}", f"printed: {sp.sstr(self.printed)}",
                  f"agree: {self.agrees}"]
        return "\n".join(lines)


def _positive(names: str) -> tuple[sp.Symbol, ...]:
    return sp.symbols(names, positive=True)


# --------------------------------------------------------------------------- Garcelon et al. 2022, Thm 5


def garcelon_batch_condition() -> Derivation:
    """Garcelon et al. 2022, Thm 5, Eq. (3), re-derived from Prop. 13 (Eq. 24) and advanced composition.

    Prop. 13 with T inside its logarithms (δ0 → δ0/T, as Thm 5 writes them) and
    m = 1 gives per batch ``ε_c = 32 d(d+3) log(8mT/δ0) (1 − x)/√(l x)`` with
    ``x = p − √(2p log(2mT/δ0)/l)``. Advanced composition over T/l batches
    (dropping its second-order term, as the paper) needs
    ``ε_c <= ε √l / √(2T ln(2T/δ0))``, i.e. ``(1 − x)/√x <= A`` with the
    paper's ``A``. For 0 < x < 1 this is the quadratic ``x² − (2 + A²)x + 1 <= 0``,
    whose smaller root gives ``√((2+A²)² − 4) >= 2 − 2x + A²``.

    ``evaluate(l=, p=, A=, log2=)`` returns ``lhs − rhs`` of the derived form
    (>= 0 iff the condition holds), ``log2 = log(2mT/δ0)``.
    """
    x, big_a, p, l, log2 = _positive("x A p l log2")
    steps = ["Prop. 13 (m = 1, T in the logs): ε_c = K (1 − x)/√(l x), x = p − √(2 p log2/l), "
             "K = 32 d (d+3) log(8mT/δ0)",
             "advanced composition over T/l batches: ε_c ≤ ε √l / √(2 T ln(2T/δ0))  ⇔  (1 − x)/√x ≤ A, "
             "A = ε l / (K √(2 T ln(2T/δ0)))"]
    quadratic = sp.expand((1 - x) ** 2 - big_a ** 2 * x)
    steps.append(f"square (both sides ≥ 0 for x ∈ (0,1)): {sp.sstr(quadratic)} ≤ 0")
    roots = sorted(sp.solve(sp.Eq(quadratic, 0), x), key=lambda r: float(r.subs(big_a, 1)))
    smaller_root = roots[0]  # the roots' product is 1: one is <= 1, the other >= 1
    steps.append(f"roots: {', '.join(sp.sstr(r) for r in roots)}; the larger one is ≥ 1 > x, so the "
                 f"condition is x ≥ {sp.sstr(smaller_root)}")
    # x ≥ ((2 + A²) − √((2+A²)² − 4))/2  ⇔  √((2+A²)² − 4) ≥ 2 + A² − 2x
    x_value = p - sp.sqrt(2 * p * log2 / l)
    rhs_constant = sp.simplify(2 - 2 * x_value)
    derived = rhs_constant
    printed = 1 - 2 * p + 2 * sp.sqrt(2 * log2 / l)
    steps.append(f"⇔ √((2+A²)² − 4) ≥ c + A² with c = 2 − 2x = {sp.sstr(derived)}")
    difference = sp.simplify(derived - printed)
    steps.append(f"derived c − printed c = {sp.sstr(difference)} (> 0 once l is large: the printed "
                 "condition is weaker than the proof needs)")
    check = sp.simplify(((1 - smaller_root) / sp.sqrt(smaller_root)) ** 2 - big_a ** 2)
    steps.append(f"check: at the smaller root, ((1 − x)/√x)² − A² simplifies to {sp.sstr(check)}")
    margin = sp.sqrt((2 + big_a ** 2) ** 2 - 4) - (derived + big_a ** 2)
    function = sp.lambdify((l, p, big_a, log2), margin, "mpmath")
    return Derivation("garcelon Thm 5, Eq. (3): the batch-length condition", tuple(steps), derived,
                      printed, bool(sp.simplify(difference) == 0),
                      lambda *, l, p, A, log2: function(mpmath.mpf(l), mpmath.mpf(p),
                                                        mpmath.mpf(A), mpmath.mpf(log2)))


# --------------------------------------------------------------------------- Tenenbaum et al. 2021, Cor. 3.2


def tenenbaum_batch_size() -> Derivation:
    """Tenenbaum et al. 2021, Cor. 3.2's batch size from Thm 3.1's per-arm regret.

    Thm 3.1: per arm ``log T/Δ + σ² log T/(mΔ) + mΔ``. Cor. 3.2 claims
    ``O(log T/Δ + Δ log(1/δ)/ε²)`` with σ² = Θ(log(1/δ)/ε²): the privacy term
    ``σ² log T/(mΔ)`` must not exceed ``log T/Δ`` (so m >= σ²), and the batch
    term ``mΔ`` is then ``Θ(σ²Δ)``. The smallest integer is ``m = ⌈σ²⌉``.
    With the printed ``m = ⌈σ⌉`` the privacy term is ``≈ σ log T/Δ``; its ratio
    to Cor. 3.2's ``log T/Δ + Δσ²`` peaks at ``√log T/(2Δ)`` (σ = √log T/Δ),
    unbounded in T: no constant makes the printed m meet the corollary.

    ``evaluate(sigma=)`` returns ⌈σ²⌉ (an integer).
    """
    sigma, gap, log_t, m = _positive("sigma Delta logT m")
    per_arm = log_t / gap + sigma ** 2 * log_t / (m * gap) + m * gap
    steps = [f"Thm 3.1, per arm: {sp.sstr(per_arm)}"]
    solution = sp.solve_univariate_inequality(sigma ** 2 * log_t / (m * gap) <= log_t / gap, m,
                                              relational=False)
    steps.append(f"privacy term ≤ non-private term ⇔ m ∈ {sp.sstr(solution)}")
    derived = sp.ceiling(sigma ** 2)
    steps.append(f"smallest integer: m = {sp.sstr(derived)}; then m Δ ≤ (σ² + 1) Δ = "
                 "Θ(Δ log(1/δ)/ε²), Cor. 3.2's bound")
    printed = sp.ceiling(sigma)
    bound = log_t / gap + gap * sigma ** 2  # Cor. 3.2 per arm, σ² = Θ(log(1/δ)/ε²)
    ratio = (sigma ** 2 * log_t / (sigma * gap)) / bound
    worst = [r for r in sp.solve(sp.diff(ratio, sigma), sigma) if r.is_positive][0]
    peak = sp.simplify(ratio.subs(sigma, worst))
    steps.append(f"with m = σ (printed) the privacy term σ log T/Δ over Cor. 3.2's log T/Δ + Δσ² peaks at "
                 f"σ = {sp.sstr(worst)} at {sp.sstr(peak)} → {sp.sstr(sp.limit(peak, log_t, sp.oo))} as "
                 "T → ∞: no constant C independent of T, Δ, ε makes the printed m meet Cor. 3.2")
    function = sp.lambdify(sigma, derived, "mpmath")
    return Derivation("tenenbaum Cor. 3.2: the batch size m", tuple(steps), derived, printed,
                      False, lambda *, sigma: int(function(mpmath.mpf(sigma))))


# --------------------------------------------------------------------------- Hanna et al. 2022, Eq. (10)


def hanna_shuffle_inverse() -> Derivation:
    """Hanna et al. 2022, Eq. (10) (FMT 2021) inverted: ``f_{n,δ}(ε0) = ε`` as a quartic in ``u = e^{ε0/2}``.

    With ``a = √(ln(4/δ)/n)`` and ``E = e^ε − 1``:
    ``(u² − 1)(8 a u + 8u²/n) = E (u² + 1)``. f is increasing with f(0) = 0, so the
    inverse is the unique root u > 1; Alg. 3 line 8 takes ``ε0 = 2 ln u``, valid
    when ``ε0 <= ln(n/(16 ln(2/δ)))`` (FMT Thm 3.1), i.e. ``n >= 16 ln(2/δ) e^{ε0}``.

    ``evaluate(epsilon=, n=, delta=)`` returns ``min(2 ln u, validity cap)`` (None
    when the cap is negative: no ε0 is valid).
    """
    u, n, delta, eps, eps0 = _positive("u n delta epsilon epsilon0")
    f = sp.log(1 + (sp.exp(eps0) - 1) / (sp.exp(eps0) + 1)
               * (8 * sp.sqrt(sp.exp(eps0) * sp.log(4 / delta)) / sp.sqrt(n) + 8 * sp.exp(eps0) / n))
    steps = [f"Eq. (10): f(ε0) = {sp.sstr(f)}", f"f(0) = {sp.sstr(sp.simplify(f.subs(eps0, 0)))}"]
    in_u = sp.simplify(sp.exp(f.subs(eps0, 2 * sp.log(u))) - 1)
    polynomial = sp.Poly(sp.expand(sp.numer(sp.together(in_u - (sp.exp(eps) - 1)))), u)
    steps.append(f"u = e^(ε0/2): e^f − 1 = {sp.sstr(in_u)}")
    steps.append(f"f = ε ⇔ quartic in u: {sp.sstr(polynomial.as_expr())} = 0 (degree "
                 f"{polynomial.degree()}); u > 1 root unique since e^f − 1 increases in u > 1")
    cap = sp.log(n / (16 * sp.log(2 / delta)))
    steps.append(f"validity (FMT Thm 3.1): ε0 ≤ {sp.sstr(cap)} ⇔ n ≥ 16 ln(2/δ) e^ε0")
    derived = 2 * sp.log(u)

    def evaluate(*, epsilon: float, n: int, delta: float) -> float | None:
        values = {sp.Symbol("epsilon", positive=True): epsilon,
                  sp.Symbol("n", positive=True): n, sp.Symbol("delta", positive=True): delta}
        limit = float(cap.subs(values))
        if limit < 0:
            return None
        coefficients = [float(c.subs(values)) for c in polynomial.all_coeffs()]
        roots = [r.real for r in mpmath.polyroots(coefficients, maxsteps=200, extraprec=200)
                 if abs(r.imag) < 1e-20 and r.real > 1]
        return min(float(2 * mpmath.log(max(roots))), limit)

    return Derivation("hanna Eq. (10): the local ε0 for a batch of n (Alg. 3 line 8)", tuple(steps),
                      derived, cap, True, evaluate)


# --------------------------------------------------------------------------- Chowdhury & Zhou 2023, Thm 1


def chowdhury_protocol_constants() -> Derivation:
    """Chowdhury & Zhou 2023, Thm 1's ``(g, τ, m)`` from the discrete Laplace tail and the modular range.

    * τ: the total noise is ``Lap_Z(g/ε)`` with ``β = e^{−ε/g}``, whose tail is
      ``P[|Z| > τ] = 2β^{τ+1}/(1 + β)``; solving ``= p`` gives the least τ
      (``τ_min``), and the printed ``τ = ⌈(g/ε) ln(2/p)⌉`` exceeds it by
      ``(g/ε) ln(1 + β) + 1 >= 0``: sufficient.
    * m: ``Σ x̂ ∈ [0, ng]``, noise ∈ [−τ, τ] ⇒ the sum takes ``ng + 2τ + 1``
      values: the least modulus for which the analyser inverts it.
    * g: rounding error ``Σ (x̂ − g x)`` has variance <= n/4 (in units of 1/g:
      ``n/(4g²)``) against the noise variance ≈ 2/ε² (in units of the sum); equal
      orders give ``g = Θ(ε√n)``, the printed ``⌈ε√n⌉``.

    ``evaluate(g=, epsilon=, p=)`` returns the least real τ with tail <= p.
    """
    g, eps, p, tau, n = _positive("g epsilon p tau n")
    beta = sp.exp(-eps / g)
    tail = 2 * beta ** (tau + 1) / (1 + beta)
    steps = [f"P[|Lap_Z(g/ε)| > τ] = {sp.sstr(tail)} (β = e^(−ε/g))"]
    tau_min = sp.solve(sp.Eq(sp.log(tail), sp.log(p)), tau)[0]
    tau_min = sp.simplify(sp.expand_log(tau_min, force=True))
    steps.append(f"tail = p ⇔ τ_min = {sp.sstr(tau_min)}")
    printed = g / eps * sp.log(2 / p)
    excess = sp.simplify(sp.expand_log(printed - tau_min, force=True))
    steps.append(f"printed (g/ε) ln(2/p) − τ_min = {sp.sstr(excess)} ≥ 0: the printed τ suffices")
    low, high = -tau, n * g + tau
    steps.append(f"modulus: values of Σx̂ + Z span [{sp.sstr(low)}, {sp.sstr(high)}]: "
                 f"m = {sp.sstr(sp.simplify(high - low + 1))}")
    balance = sp.solve(sp.Eq(n / (4 * g ** 2), 1 / (4 * eps ** 2)), g)
    steps.append(f"rounding variance n/(4g²) = noise order 1/(4ε²) ⇔ g = {sp.sstr(balance)}: g = ⌈ε√n⌉")
    function = sp.lambdify((g, eps, p), tau_min, "mpmath")
    return Derivation("chowdhury Thm 1: (g, τ, m) of Dist-DP-SE", tuple(steps), tau_min, printed,
                      False, lambda *, g, epsilon, p: function(mpmath.mpf(g), mpmath.mpf(epsilon),
                                                               mpmath.mpf(p)))


def chowdhury_inverted_polya() -> Derivation:
    """The public code's Pólya scale ``(1−β)/β`` against Chowdhury & Zhou 2023's ``β/(1−β)`` (footnote 3).

    Pólya(r, β) is Poisson–Gamma with shape r and scale θ; its variance is
    ``rθ(1 + θ)``. n users' differences with r = 1/n sum to variance ``2θ(1+θ)``:
    ``2β/(1−β)²`` (paper, = Var Lap_Z) vs ``2(1−β)/β²`` (code). The code's sum is
    ``Lap_Z`` with ratio ``β' = 1 − β``, so at sensitivity g it is
    ``g ln(1/(1 − β))``-DP, not ε.

    ``evaluate(g=, epsilon=)`` returns ``(variance ratio paper/code, ε delivered)``.
    """
    beta, g, eps, theta = _positive("beta g epsilon theta")
    variance = 2 * theta * (1 + theta)
    paper = sp.simplify(variance.subs(theta, beta / (1 - beta)))
    code = sp.simplify(variance.subs(theta, (1 - beta) / beta))
    ratio = sp.simplify(paper / code)
    steps = [f"n Pólya differences (r = 1/n, Gamma scale θ): variance {sp.sstr(variance)}",
             f"paper θ = β/(1−β): {sp.sstr(paper)}; code θ = (1−β)/β: {sp.sstr(code)}",
             f"ratio paper/code = {sp.sstr(ratio)}; with β = e^(−ε/g): "
             f"≈ {sp.sstr(sp.series(ratio.subs(beta, sp.exp(-eps / g)), eps, 0, 1).removeO())} "
             "for small ε/g",
             "code's sum = Lap_Z with ratio 1 − β ⇒ ε delivered at sensitivity g = g ln(1/(1 − β))"]
    delivered = g * sp.log(1 / (1 - sp.exp(-eps / g)))
    ratio_function = sp.lambdify((g, eps), ratio.subs(beta, sp.exp(-eps / g)), "mpmath")
    delivered_function = sp.lambdify((g, eps), delivered, "mpmath")
    return Derivation("chowdhury public code: the inverted Pólya scale", tuple(steps), delivered, eps,
                      False, lambda *, g, epsilon: (ratio_function(mpmath.mpf(g), mpmath.mpf(epsilon)),
                                                    delivered_function(mpmath.mpf(g),
                                                                       mpmath.mpf(epsilon))))


def chowdhury_skellam_rdp() -> Derivation:
    """Chowdhury & Zhou 2023, Thm 2: Dist-RDP-SE's ε̂(α), uniform in the batch size n.

    Agarwal, Kairouz & Liu 2021 Thm 3.5 at Δ₁ = Δ₂ = g and total variance
    ``g²/ε²`` gives ``αε²/2 + min{((2α−1)g² + 6g)ε⁴/(4g⁴), 3gε²/(2g²)}``; with
    ``g = sε√n`` this is ε̂_n(α), decreasing in n, so its supremum is n = 1:
    ``αε²/2 + min{(2α−1)ε²/(4s²) + 3ε/(2s³), 3ε/(2s)}`` — the printed Thm 2 form.
    The library uses the actual ``g = ⌈sε√n⌉`` (ε̂ decreases in g).

    ``evaluate(alpha=, epsilon=, s=, n=)`` returns ε̂_n(α) (n = 1: the uniform bound).
    """
    alpha, eps, s_, n, g = _positive("alpha epsilon s n g")
    variance = g ** 2 / eps ** 2
    agarwal = alpha * g ** 2 / (2 * variance) + sp.Min(
        ((2 * alpha - 1) * g ** 2 + 6 * g) / (4 * variance ** 2), 3 * g / (2 * variance))
    per_n = sp.simplify(agarwal.subs(g, s_ * eps * sp.sqrt(n)))
    steps = [f"Agarwal et al. Thm 3.5 (Δ₁ = Δ₂ = g, variance g²/ε²): {sp.sstr(sp.simplify(agarwal))}",
             f"g = sε√n: ε̂_n(α) = {sp.sstr(per_n)}"]
    minimum = next(t for t in sp.Add.make_args(per_n) if isinstance(t, sp.Min))
    derivatives = [sp.simplify(sp.diff(arg, n)) for arg in minimum.args]
    excess = sp.Symbol("t", positive=True)  # α = 1 + t > 1 (RDP orders)
    negative = all(sp.ask(sp.Q.negative(sp.simplify(dv.subs(alpha, 1 + excess)))) for dv in derivatives)
    steps.append("both arguments of the min decrease in n (derivatives "
                 f"{'; '.join(sp.sstr(dv) for dv in derivatives)}; negative for α > 1: {negative}), so the "
                 "supremum over n >= 1 is at n = 1")
    derived = sp.simplify(per_n.subs(n, 1))
    printed = alpha * eps ** 2 / 2 + sp.Min(
        (2 * alpha - 1) * eps ** 2 / (4 * s_ ** 2) + 3 * eps / (2 * s_ ** 3), 3 * eps / (2 * s_))
    agrees = bool(sp.simplify(derived - printed) == 0)
    steps.append(f"n = 1: {sp.sstr(derived)}; printed Thm 2 form: equal = {agrees}")
    function = sp.lambdify((alpha, eps, s_, n), per_n, "mpmath")
    return Derivation("chowdhury Thm 2: the uniform RDP bound of Dist-RDP-SE", tuple(steps), derived, printed,
                      agrees, lambda *, alpha, epsilon, s, n: function(*(mpmath.mpf(v) for v in
                                                                        (alpha, epsilon, s, n))))


# --------------------------------------------------------------------------- Li, Zhou & Ji 2022, Eq. (22)


def dpdpe_shuffle_variance() -> Derivation:
    """Li, Zhou & Ji 2022, Alg. 2's error with Eq. (22)'s constants, against Thm 9's printed order.

    The analyser scales bit counts by ``2Δ/(g|U|)``; every user adds ``Bin(b, p)``
    (and a rounding Bernoulli, variance <= 1/4). With ``b p = b₀/2``,
    ``b₀ = 180 g² ln(4s/δ)/(ε̂² |U|)`` and ``ε̂ = ε/(18 √ln(2/δ))`` the noise part of
    the variance is ``(2Δ/(g|U|))² |U| b p (1 − p)`` =
    ``116640 Δ² ln(4s/δ) ln(2/δ) (1 − p)/(ε² |U|²)``: order ``Δ² ln²(s/δ)/(ε²|U|²)``,
    not the printed ``Δ ln(s/δ)/(ε²|U|²)`` (Thm 9; its proof ends with the squared form). p ∈ (0, 1/2] since
    ``p = b₀/(2⌈b₀⌉)``.

    ``evaluate(norm_bound=, users=, dimension=, epsilon=, delta=, p=)`` returns
    the noise variance (without the rounding part).
    """
    big_delta, users, s, eps, delta, g, p, b0 = _positive("Delta U s epsilon delta g p b0")
    eps_hat = eps / (18 * sp.sqrt(sp.log(2 / delta)))
    base = 180 * g ** 2 * sp.log(4 * s / delta) / (eps_hat ** 2 * users)
    steps = [f"Eq. (22): ε̂ = {sp.sstr(eps_hat)}, b₀ = 180 g² ln(4s/δ)/(ε̂²|U|) = {sp.sstr(base)}, "
             "b = ⌈b₀⌉, p = b₀/(2b) ∈ (0, 1/2]"]
    # b p = b0/2 exactly
    noise = sp.factor(sp.expand((2 * big_delta / (g * users)) ** 2 * users * (base / 2) * (1 - p)))
    steps.append(f"noise variance (2Δ/(g|U|))² |U| b p (1−p) with b p = b₀/2: {sp.sstr(noise)}")
    printed = big_delta * sp.log(s / delta) / (eps ** 2 * users ** 2)
    ratio = sp.factor(noise / printed)
    steps.append(f"ratio to Thm 9's printed Δ ln(s/δ)/(ε²|U|²): {sp.sstr(ratio)} — grows like "
                 "Δ ln(1/δ): the printed order is a typo for Δ² ln²(s/δ)/(ε²|U|²)")
    function = sp.lambdify((big_delta, users, s, eps, delta, p), noise, "mpmath")
    return Derivation("dpdpe Eq. (22) / Thm 9: the shuffle protocol's error", tuple(steps), noise,
                      printed, False,
                      lambda *, norm_bound, users, dimension, epsilon, delta, p: function(
                          *(mpmath.mpf(v) for v in (norm_bound, users, dimension, epsilon, delta, p))))
