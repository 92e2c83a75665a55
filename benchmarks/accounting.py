"""Accounting benchmark: dpverify side by side with dp-accounting and prv-accountant.

Run on demand (not part of the test suite)::

    python benchmarks/accounting.py            # everything
    python benchmarks/accounting.py --quick    # skip the slowest peer runs (dp-accounting PLD at k = 10^4)

Reports, for σ = 1 Gaussians at δ = 1e-5:

* ε after k = 1000 and k = 10^4 compositions, by dpverify's PLD and RDP
  accountants, the exact value (analytic Gaussian, since k Gaussians with noise
  σ are one Gaussian with noise σ/√k), dp-accounting's PLD and RDP
  accountants, and prv-accountant's upper estimate;
* the σ calibration for (ε, δ) = (1, 1e-5) over 1000 steps by each tool.

* DP-SGD (q = 256/60000, 14,062 steps, δ = 1e-5; 14,062 is 60 epochs counted as Opacus does,
  ⌊E/q⌋, while dpverify's CLI counts ⌈E·N/B⌉ = 14,063: ``docs/guide/dp-sgd.md``): ε at σ = 1.1 and
  σ for ε = 3, by dpverify's PLD and RDP accountants next to dp-accounting's,
  with the speed-up (dp-accounting's time / ours, fastest of 3 forked runs each,
  both libraries imported before forking) and the grids both use; Opacus's ε by
  RDP (its ``accountants/analysis/rdp.py`` at its default orders, loaded by file
  path because ``import opacus`` needs torch: ``pip install --no-deps opacus``)
  when installed. Opacus's σ calibration (``get_noise_multiplier``) needs torch
  and is not run;
* precision rows: a Gaussian at δ = 1e-30, 10^6-fold randomized response
  (ε0 = 0.001) and 10^7 Gaussians of σ = √10^7, against their exact values.

Each row gives the value, its relative gap to the exact value, and the time.
Peer libraries are imported only here and in tests, never by dpverify itself.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from _forked import run_forked

from dpverify.accountants.calibrate import gaussian_epsilon, min_gaussian_sigma
from dpverify.accountants.pld import PrivacyLossDistribution

DELTA = 1e-5
SIGMA = 1.0


#: Each peer run gets this much memory and time; prv-accountant needs more than 24 GiB
#: at k = 10^4, which would otherwise take the whole machine down.
MEMORY_LIMIT_BYTES = 8 * 2**30
TIME_LIMIT_SECONDS = 1200


def _timed(function: Callable[[], float]) -> tuple[float, float]:
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def _fine_pld_epsilon(k: int) -> float:
    """dpverify's PLD on a 10x finer grid than its default (σ_L/100 = 0.01 here)."""
    pld = PrivacyLossDistribution.from_gaussian(SIGMA, value_discretization_interval=1e-3)
    return pld.self_compose(k).epsilon_for_delta(DELTA)


def _dp_accounting_epsilon(k: int, kind: str) -> float:
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    accountant = (pld_privacy_accountant.PLDAccountant() if kind == "pld"
                  else rdp_privacy_accountant.RdpAccountant())
    accountant.compose(dp_accounting.SelfComposedDpEvent(dp_accounting.GaussianDpEvent(SIGMA), k))
    return accountant.get_epsilon(DELTA)


def _prv_epsilon(k: int, sigma: float = SIGMA) -> float:
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism

    accountant = PRVAccountant(prvs=[GaussianMechanism(noise_multiplier=sigma)],
                               max_self_compositions=[k], eps_error=0.01,
                               delta_error=DELTA * 1e-3)
    _, _, upper = accountant.compute_epsilon(delta=DELTA, num_self_compositions=[k])
    return upper


def _dp_accounting_sigma(epsilon: float, k: int, kind: str) -> float:
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    make = (pld_privacy_accountant.PLDAccountant if kind == "pld"
            else rdp_privacy_accountant.RdpAccountant)
    return dp_accounting.calibrate_dp_mechanism(
        make, lambda s: dp_accounting.SelfComposedDpEvent(dp_accounting.GaussianDpEvent(s), k),
        epsilon, DELTA)


def _prv_sigma(epsilon: float, k: int) -> float:
    """prv-accountant has no calibrator: bisect its upper estimate (to 1e-4 relative)."""
    low, high = 1.0, 1000.0
    while (high - low) > 1e-4 * high:
        middle = (low + high) / 2
        low, high = (low, middle) if _prv_epsilon(k, middle) <= epsilon else (middle, high)
    return high


def _row(name: str, run: Callable[[], float], exact: float) -> str:
    status, value, seconds = run_forked(run, seconds=TIME_LIMIT_SECONDS,
                                        memory_bytes=MEMORY_LIMIT_BYTES)
    if status != "ok":
        return f"| {name} | {status} | | |"
    return f"| {name} | {value:.6f} | {(value - exact) / exact:+.4%} | {seconds:.3f} |"


def epsilon_table(k: int, *, quick: bool) -> list[str]:
    """Rows for ε of k composed Gaussians."""
    exact, exact_time = _timed(lambda: gaussian_epsilon(SIGMA, delta=DELTA, count=k,
                                                        method="analytic"))
    runs: list[tuple[str, Callable[[], float]]] = [
        ("dpverify PLD", lambda: gaussian_epsilon(SIGMA, delta=DELTA, count=k)),
        ("dpverify PLD (h = 1e-3)", lambda: _fine_pld_epsilon(k)),
        ("dpverify RDP", lambda: gaussian_epsilon(SIGMA, delta=DELTA, count=k,
                                                  method="rdp")),
        ("dp-accounting RDP", lambda: _dp_accounting_epsilon(k, "rdp")),
        ("prv-accountant (upper)", lambda: _prv_epsilon(k)),
    ]
    if not (quick and k > 1000):
        runs.append(("dp-accounting PLD", lambda: _dp_accounting_epsilon(k, "pld")))
    rows = [f"\n### ε of {k} Gaussians (σ = {SIGMA}, δ = {DELTA})\n",
            "| tool | ε | gap to exact | seconds |", "|---|---|---|---|"]
    rows.append(f"| dpverify exact (analytic) | {exact:.6f} | +0.0000% | {exact_time:.3f} |")
    rows.extend(_row(name, run, exact) for name, run in runs)
    return rows


def sigma_table(epsilon: float = 1.0, k: int = 1000) -> list[str]:
    """Rows for the σ calibration of k Gaussians to (ε, δ)."""
    exact, exact_time = _timed(lambda: min_gaussian_sigma(epsilon, DELTA, count=k,
                                                          method="analytic"))
    runs: list[tuple[str, Callable[[], float]]] = [
        ("dpverify PLD", lambda: min_gaussian_sigma(epsilon, DELTA, count=k)),
        ("dpverify RDP", lambda: min_gaussian_sigma(epsilon, DELTA, count=k,
                                                    method="rdp")),
        ("dp-accounting PLD", lambda: _dp_accounting_sigma(epsilon, k, "pld")),
        ("dp-accounting RDP", lambda: _dp_accounting_sigma(epsilon, k, "rdp")),
        ("prv-accountant (bisection)", lambda: _prv_sigma(epsilon, k)),
    ]
    rows = [f"\n### σ calibration for (ε, δ) = ({epsilon}, {DELTA}) over {k} steps\n",
            "| tool | σ | gap to exact | seconds |", "|---|---|---|---|"]
    rows.append(f"| dpverify exact (analytic) | {exact:.6f} | +0.0000% | {exact_time:.3f} |")
    rows.extend(_row(name, run, exact) for name, run in runs)
    return rows


SGD_RATE = 256 / 60000
SGD_STEPS = 14062
SGD_SIGMA = 1.1
SGD_EPSILON = 3.0
#: Each DP-SGD cell runs this many times (each in a fresh forked child); the fastest is reported,
#: since the machine's load only ever adds time.
SGD_REPEATS = 3


def _warm_imports() -> None:
    """Import both libraries (and what they import lazily) in the parent, so no forked cell pays
    an import: every cell then times the computation only, for dpverify and dp-accounting alike."""
    import importlib

    for module in ("scipy.optimize", "scipy.special", "scipy.stats", "dp_accounting",
                   "dp_accounting.pld.pld_privacy_accountant",
                   "dp_accounting.rdp.rdp_privacy_accountant", "dpverify.accountants.calibrate.dp_sgd",
                   "dpverify.accountants.accountant"):
        importlib.import_module(module)


def _sgd_event(sigma: float):
    from dpverify.accountants.events import PoissonSampledEvent, SelfComposedEvent
    from dpverify.mechanisms import Gaussian

    return SelfComposedEvent(PoissonSampledEvent(Gaussian(sigma=sigma), SGD_RATE), SGD_STEPS)


def _sgd_loss_std(sigma: float = SGD_SIGMA) -> float:
    from dpverify.accountants.pld.distribution import subsampled_gaussian_loss_std

    return subsampled_gaussian_loss_std(sigma, SGD_RATE)


def _dpverify_sgd_epsilon(method: str, interval: float | None = None) -> float:
    from dpverify.accountants.calibrate.dp_sgd import dp_sgd_epsilon

    return dp_sgd_epsilon(noise_multiplier=SGD_SIGMA, delta=DELTA, sampling_probability=SGD_RATE, steps=SGD_STEPS,
                          method=method, value_discretization_interval=interval)


def _accountant_sgd_epsilon() -> float:
    from dpverify.accountants.accountant import PrivacyAccountant

    return PrivacyAccountant("pld").compose(_sgd_event(SGD_SIGMA)).get_epsilon(DELTA)


def _dp_accounting_sgd_event(sigma: float):
    import dp_accounting

    return dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(SGD_RATE, dp_accounting.GaussianDpEvent(sigma)), SGD_STEPS)


def _dp_accounting_sgd_epsilon(kind: str, sigma: float = SGD_SIGMA) -> float:
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    accountant = (pld_privacy_accountant.PLDAccountant() if kind == "pld"
                  else rdp_privacy_accountant.RdpAccountant())
    accountant.compose(_dp_accounting_sgd_event(sigma))
    return accountant.get_epsilon(DELTA)


def _dp_accounting_sgd_sigma(kind: str, epsilon: float = SGD_EPSILON) -> float:
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    make = (pld_privacy_accountant.PLDAccountant if kind == "pld"
            else rdp_privacy_accountant.RdpAccountant)
    return dp_accounting.calibrate_dp_mechanism(make, _dp_accounting_sgd_event, epsilon, DELTA)


def _opacus_rdp_analysis():
    """Opacus's RDP analysis module (pure numpy/scipy), loaded without ``import opacus`` (torch)."""
    import importlib.metadata
    import importlib.util

    files = importlib.metadata.distribution("opacus").files or []
    path = next(f for f in files if str(f).replace("\\", "/").endswith("accountants/analysis/rdp.py"))
    spec = importlib.util.spec_from_file_location("_opacus_rdp", path.locate())
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _opacus_installed() -> bool:
    import importlib.metadata

    try:
        importlib.metadata.distribution("opacus")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def _opacus_sgd_epsilon(sigma: float = SGD_SIGMA) -> float:
    analysis = _opacus_rdp_analysis()
    orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))  # RDPAccountant.DEFAULT_ALPHAS
    rdp = analysis.compute_rdp(q=SGD_RATE, noise_multiplier=sigma, steps=SGD_STEPS, orders=orders)
    return float(analysis.get_privacy_spent(orders=orders, rdp=rdp, delta=DELTA)[0])


def _dpverify_sgd_sigma(method: str) -> float:
    from dpverify.accountants.calibrate.dp_sgd import min_noise_multiplier

    return min_noise_multiplier(epsilon=SGD_EPSILON, delta=DELTA, sampling_probability=SGD_RATE,
                                steps=SGD_STEPS, method=method)


def _plain_row(name: str, run: Callable[[], float], reference: float | None = None) -> str:
    status, value, seconds = run_forked(run, seconds=TIME_LIMIT_SECONDS,
                                        memory_bytes=MEMORY_LIMIT_BYTES)
    if status != "ok":
        return f"| {name} | {status} | | |"
    gap = "" if reference is None else f"{(value - reference) / reference:+.4%}"
    return f"| {name} | {value:.6f} | {gap} | {seconds:.3f} |"


def _best_of(run: Callable[[], float], repeats: int = SGD_REPEATS,
             ) -> tuple[str, float, float, float]:
    """``(status, value, fastest wall seconds, fastest CPU seconds)`` over ``repeats`` forked runs.

    CPU time (``time.process_time`` in the child, all its threads) is reported beside the wall
    time: on a shared machine the load inflates wall times, for both libraries but not equally.
    """
    def timed() -> tuple[float, float]:
        start = time.process_time()
        value = run()
        return value, time.process_time() - start

    walls, cpus, value = [], [], float("nan")
    for _ in range(repeats):
        status, outcome, seconds = run_forked(timed, seconds=TIME_LIMIT_SECONDS,
                                              memory_bytes=MEMORY_LIMIT_BYTES)
        if status != "ok":
            return status, float("nan"), float("nan"), float("nan")
        value, cpu = outcome
        walls.append(seconds)
        cpus.append(cpu)
    return "ok", value, min(walls), min(cpus)


def _timed_rows(cells: list[tuple[str, Callable[[], float], str | None]], reference: float,
                ) -> list[str]:
    """Rows ``tool | value | gap to reference | wall s | CPU s | speed-up (wall, CPU)``.

    ``cells``: (name, run, key): a dp-accounting cell (name starting "dp-accounting") is the
    peer of every dpverify cell with the same key; the speed-up is the peer's time / ours
    (other peers' cells, e.g. Opacus, get none).
    """
    results = {name: _best_of(run) for name, run, _ in cells}
    peers = {key: results[name] for name, _, key in cells if name.startswith("dp-accounting")}
    rows = []
    for name, _, key in cells:
        status, value, wall, cpu = results[name]
        if status != "ok":
            rows.append(f"| {name} | {status} | | | | |")
            continue
        ratio = ""
        if name.startswith("dpverify") and key in peers:
            ratio = f"{peers[key][2] / wall:.1f}x, {peers[key][3] / cpu:.1f}x"
        rows.append(f"| {name} | {value:.6f} | {(value - reference) / reference:+.4%} | "
                    f"{wall:.3f} | {cpu:.3f} | {ratio} |")
    return rows


def dp_sgd_tables() -> list[str]:
    """ε at σ = 1.1 and σ for ε = 3 over 14,062 DP-SGD steps, dpverify next to dp-accounting."""
    _warm_imports()
    std = _sgd_loss_std()
    reference = _dpverify_sgd_epsilon("pld", std / 300)
    rows = [f"\n### DP-SGD: ε at σ = {SGD_SIGMA} (q = 256/60000, {SGD_STEPS} steps, δ = {DELTA})\n",
            f"Loss std of one step σ_L = {std:.4g}. dp-accounting: `PLDAccountant()` (grid h = 1e-4 = "
            f"σ_L/{std / 1e-4:.0f}, connect-the-dots, pessimistic, tails 1e-15). dpverify default: "
            f"h = σ_L/30 = {std / 30:.3g}, connect-the-dots, pessimistic, tails 1e-15. Gaps are to "
            f"dpverify at h = σ_L/300 ({reference:.6f}, an upper bound within ~1e-6 of exact); "
            f"times are the fastest of {SGD_REPEATS} forked runs; speed-up = dp-accounting's time / ours.\n",
            "| tool | ε | gap to exact | wall s | CPU s | speed-up (wall, CPU) |",
            "|---|---|---|---|---|---|"]
    rows += _timed_rows([
        ("dpverify PLD (`dp_sgd_epsilon`, h = σ_L/30)", lambda: _dpverify_sgd_epsilon("pld"), "pld"),
        ("dpverify PLD at dp-accounting's grid (h = 1e-4)",
         lambda: _dpverify_sgd_epsilon("pld", 1e-4), "pld"),
        ("dpverify PLD (`PrivacyAccountant`, h = σ_L/100)", _accountant_sgd_epsilon, "pld"),
        ("dp-accounting PLD", lambda: _dp_accounting_sgd_epsilon("pld"), "pld"),
        ("dpverify RDP (`dp_sgd_epsilon`)", lambda: _dpverify_sgd_epsilon("rdp"), "rdp"),
        ("dp-accounting RDP", lambda: _dp_accounting_sgd_epsilon("rdp"), "rdp"),
        *([("Opacus RDP (`compute_rdp`, its default orders)", _opacus_sgd_epsilon, "rdp")]
          if _opacus_installed() else []),
    ], reference)
    rows += [f"\n### DP-SGD: σ for ε = {SGD_EPSILON} ({SGD_STEPS} steps, δ = {DELTA})\n",
             "dpverify: `min_noise_multiplier` (verified passing end, 1e-4 relative; PLD on its "
             "h = σ_L/30 grid). dp-accounting: `calibrate_dp_mechanism` with `PLDAccountant()` / "
             "`RdpAccountant()`. Gaps are to dp-accounting's PLD σ.\n",
             "| tool | σ | gap to dp-accounting PLD | wall s | CPU s | speed-up (wall, CPU) |",
             "|---|---|---|---|---|---|"]
    peer_sigma = _best_of(lambda: _dp_accounting_sgd_sigma("pld"), 1)[1]
    rows += _timed_rows([
        ("dpverify PLD", lambda: _dpverify_sgd_sigma("pld"), "pld"),
        ("dp-accounting PLD", lambda: _dp_accounting_sgd_sigma("pld"), "pld"),
        ("dpverify RDP", lambda: _dpverify_sgd_sigma("rdp"), "rdp"),
        ("dp-accounting RDP", lambda: _dp_accounting_sgd_sigma("rdp"), "rdp"),
    ], peer_sigma)
    return rows


def precision_table() -> list[str]:
    """Cases that had a precision floor before issue 15, against exact values."""
    import math

    from dpverify.mechanisms.continuous import gaussian_privacy_profile

    rows = ["\n### Precision (no fixed floor)\n",
            "| case | ε | gap to exact | seconds |", "|---|---|---|---|"]
    exact = gaussian_privacy_profile(1.0).epsilon_for_delta(1e-30)
    rows.append(_plain_row("Gaussian σ = 1, δ = 1e-30 (exact 11.7439)",
                           lambda: PrivacyLossDistribution.from_gaussian(1.0).epsilon_for_delta(1e-30),
                           exact))
    exact = gaussian_privacy_profile(1.0).epsilon_for_delta(DELTA)
    rows.append(_plain_row("10^7 Gaussians σ = √10^7, δ = 1e-5 (exact 4.3772)",
                           lambda: PrivacyLossDistribution.from_gaussian(math.sqrt(1e7))
                           .self_compose(10 ** 7).epsilon_for_delta(DELTA), exact))
    rows.append(_plain_row("10^6-fold RR ε0 = 0.001, δ = 1e-5 (exact 4.377171, binomial sum)",
                           lambda: PrivacyLossDistribution.from_randomized_response(0.001)
                           .self_compose(10 ** 6).epsilon_for_delta(DELTA), 4.377171092397433))
    rows.append(_plain_row("3·Lap(1) + 2·Lap(2), δ = 1e-14 (exact 4)",
                           lambda: PrivacyLossDistribution.from_laplace(1.0).self_compose(3).compose(
                               PrivacyLossDistribution.from_laplace(2.0).self_compose(2))
                           .epsilon_for_delta(1e-14), 4.0))
    rows.append(_plain_row("(1, 0.1) then (2, 0.2), δ = 0.28 (exact 3)",
                           lambda: PrivacyLossDistribution.from_approx_dp(1.0, 0.1).compose(
                               PrivacyLossDistribution.from_approx_dp(2.0, 0.2))
                           .epsilon_for_delta(0.28), 3.0))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip dp-accounting's PLD at k = 10^4 (minutes)")
    parser.add_argument("--only", choices=("gaussian", "dp-sgd", "precision"),
                        help="run one group of tables")
    args = parser.parse_args()
    if args.only == "dp-sgd":
        print("\n".join(dp_sgd_tables()), flush=True)
        return
    if args.only == "precision":
        print("\n".join(precision_table()), flush=True)
        return
    for k in (1000, 10_000):
        print("\n".join(epsilon_table(k, quick=args.quick)), flush=True)
    print("\n".join(sigma_table()), flush=True)
    if args.only is None:
        print("\n".join(dp_sgd_tables()), flush=True)
        print("\n".join(precision_table()), flush=True)


if __name__ == "__main__":
    main()
