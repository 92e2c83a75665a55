"""Every public function refuses bad arguments with an error naming the parameter.

One table: (function, valid keyword arguments, parameter, bad values). Each bad
value replaces the valid one and must raise ValueError or TypeError whose
message contains the parameter's name (STYLE rules 16–18, 31).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from dpverify import ApproxDP, PureDP, RDPCurve, ZCDP
from dpverify.accountants import calibrate, composition, pld, rdp, shuffle, shuffle_papers, zcdp
from dpverify import mechanisms as mech
from dpverify.mechanisms import continuous, samplers
from dpverify.bandits import Batch, RewardBatch
from dpverify.bandits import environments as bandit_env
from dpverify.bandits.linear import environments as linear_env
from dpverify import execution
from dpverify.bandits import experiments as bandit_experiments
from dpverify.bandits import instance_files
from dpverify.bandits import mab as bandit_mab
from dpverify.bandits import privatizers as bandit_privatizers
from dpverify.bandits import simulate as bandit_simulate
from dpverify.bandits.mab import _elimination as bandit_elimination
from dpverify.bandits import design as bandit_design
from dpverify.bandits import linear as bandit_linear
from dpverify.bandits.linear import distributed_phased_elimination as linear_dpdpe
from dpverify.bandits.linear import phased_elimination as linear_hanna
from dpverify.bandits.linear import privatizers as linear_privatizers
from dpverify.bandits import contextual as bandit_contextual
from dpverify.bandits.contextual import parameters as contextual_params
from dpverify.bandits.contextual import reports as contextual_reports
from dpverify import auditing
from dpverify.bandits import returning_users
from dpverify.bandits.mab import tenenbaum_extensions
from dpverify.claims import check_paper
from dpverify.claims import regret_bounds as claims_bounds
from dpverify.auditing.interactive import audit_interactive
from dpverify import testing as dp_testing
from dpverify.testing import strategies as dp_strategies

PLD = pld.PrivacyLossDistribution
NAN, INF = math.nan, math.inf
NOT_A_NUMBER = ["1.0", None, True]
REALS_POSITIVE = [NAN, INF, -INF, 0.0, -1.0, *NOT_A_NUMBER]
EPSILONS = [NAN, INF, -1.0, *NOT_A_NUMBER]
DELTAS_OPEN = [NAN, -1e-3, 0.0, 1.0, 1.5, *NOT_A_NUMBER]  # δ in (0, 1)
DELTAS = [NAN, -1e-3, 1.0, 1.5, *NOT_A_NUMBER]           # δ in [0, 1)
COUNTS = [0, -1, 1.5, NAN, INF, "3", None, True]
PROBABILITIES = [NAN, -0.1, 1.1, INF, *NOT_A_NUMBER]
ORDERS = [(1.0, 2.0), (3.0, 2.0), (), (2.0, NAN), "23"]

_curve = RDPCurve((2.0, 4.0), (0.5, 1.0))
_RNG = np.random.default_rng(0)


def _coin(data, size, rng):
    return rng.random(size) < (0.75 if data else 0.25)


def _run(stream, rng):
    return [int(rng.random() < (0.75 if stream else 0.25))]


_AUDIT = {"sampler": _coin, "x": 1, "x_prime": 0, "epsilon": 1.0, "samples": 100, "seed": 0}
_CURVE = {"sampler": _coin, "x": 1, "x_prime": 0, "profile": PureDP(1.0), "samples": 100,
          "seed": 0, "epsilons": [0.5]}
_INTERACTIVE = {"run": _run, "stream": 1, "stream_prime": 0, "statistic": lambda t: t[0],
                "epsilon": 1.0, "runs": 30, "seed": 0}
SEEDS = [-1, 1.5, "7", True]
_SWEEP = bandit_experiments.SweepSpec("tiny", (bandit_experiments.Panel(
    "p", "", bandit_env.InstanceFamily("easy", 2), 1.0, 20, (bandit_experiments.AlgorithmSpec(
        "se", "SE"),)),), runs=1, checkpoints=2)
_INSTANCE_FILE = str(__import__("pathlib").Path(__file__).resolve().parent / "data_instance.json")
_SATISFIES = {"sampler": _coin, "x": 1, "x_prime": 0, "epsilon": 2.0, "samples": 100, "seed": 0}
_CONSERVATIVE = {"upper_bound": 1.0, "exact": 1.0, "name": "eps"}
_REALS = [NAN, "1", None, True]
_TOLERANCES = [-1.0, NAN, INF, "0", None]

TABLE: list[tuple[str, Callable[..., Any], dict[str, Any], str, list[Any]]] = [
    # guarantees and exact profiles
    ("PureDP", PureDP, {"epsilon": 1.0}, "epsilon", EPSILONS),
    ("ApproxDP.delta", ApproxDP, {"epsilon": 1.0, "delta": 1e-5}, "delta", DELTAS),
    ("ZCDP", ZCDP, {"rho": 0.5}, "rho", [NAN, INF, -1.0, *NOT_A_NUMBER]),
    ("RDPCurve", RDPCurve, {"orders": (2.0, 3.0), "epsilons": (1.0, 2.0)}, "orders", ORDERS),
    ("gaussian_privacy_profile", continuous.gaussian_privacy_profile, {"sigma": 1.0}, "sigma",
     REALS_POSITIVE),
    ("laplace_privacy_profile", continuous.laplace_privacy_profile,
     {"scale": 1.0, "sensitivity": 1.0}, "sensitivity", REALS_POSITIVE),
    # composition
    ("advanced_composition.epsilon", composition.advanced_composition,
     {"epsilon": 0.1, "delta": 1e-6, "k": 10, "delta_slack": 1e-6}, "epsilon", EPSILONS),
    ("advanced_composition.delta", composition.advanced_composition,
     {"epsilon": 0.1, "delta": 1e-6, "k": 10, "delta_slack": 1e-6}, "delta", DELTAS),
    ("advanced_composition.k", composition.advanced_composition,
     {"epsilon": 0.1, "delta": 1e-6, "k": 10, "delta_slack": 1e-6}, "k", COUNTS),
    ("advanced_composition.delta_slack", composition.advanced_composition,
     {"epsilon": 0.1, "delta": 1e-6, "k": 10, "delta_slack": 1e-6}, "delta_slack", DELTAS_OPEN),
    ("optimal_composition.k", composition.optimal_composition,
     {"epsilon": 0.1, "delta": 0.0, "k": 10, "target_delta": 1e-6}, "k", COUNTS),
    ("optimal_composition.target_delta", composition.optimal_composition,
     {"epsilon": 0.1, "delta": 0.0, "k": 10, "target_delta": 1e-6}, "target_delta", DELTAS_OPEN),
    ("optimal_composition_delta.target_epsilon", composition.optimal_composition_delta,
     {"epsilon": 0.1, "delta": 0.0, "k": 10, "target_epsilon": 0.5}, "target_epsilon", EPSILONS),
    # RDP and zCDP
    ("gaussian_rdp", rdp.gaussian_rdp, {"sigma": 1.0}, "sigma", REALS_POSITIVE),
    ("gaussian_rdp.orders", rdp.gaussian_rdp, {"sigma": 1.0}, "orders", ORDERS),
    ("laplace_rdp", rdp.laplace_rdp, {"scale": 1.0}, "scale", REALS_POSITIVE),
    ("randomized_response_rdp", rdp.randomized_response_rdp, {"epsilon": 1.0}, "epsilon",
     EPSILONS),
    ("pure_dp_rdp", rdp.pure_dp_rdp, {"epsilon": 1.0}, "epsilon", EPSILONS),
    ("subsampled_gaussian_rdp.sampling_probability", rdp.subsampled_gaussian_rdp,
     {"sigma": 1.0, "sampling_probability": 0.01}, "sampling_probability", PROBABILITIES),
    ("subsampled_gaussian_rdp.sigma", rdp.subsampled_gaussian_rdp,
     {"sigma": 1.0, "sampling_probability": 0.01}, "sigma", REALS_POSITIVE),
    ("rdp_to_dp", rdp.rdp_to_dp, {"curve": _curve, "delta": 1e-5}, "delta", DELTAS_OPEN),
    ("rdp_to_dp.method", rdp.rdp_to_dp, {"curve": _curve, "delta": 1e-5}, "method",
     ["exact", None]),
    ("zcdp_to_dp", zcdp.zcdp_to_dp, {"zcdp": ZCDP(0.5), "delta": 1e-5}, "delta", DELTAS_OPEN),
    ("zcdp_to_dp.method", zcdp.zcdp_to_dp, {"zcdp": ZCDP(0.5), "delta": 1e-5}, "method",
     ["exact", None]),
    ("zcdp_to_rdp.orders", zcdp.zcdp_to_rdp, {"zcdp": ZCDP(0.5)}, "orders", ORDERS),
    # privacy loss distributions
    ("PLD.from_gaussian", PLD.from_gaussian, {"sigma": 1.0}, "sigma", REALS_POSITIVE),
    ("PLD.from_laplace", PLD.from_laplace, {"scale": 1.0}, "scale", REALS_POSITIVE),
    ("PLD.from_randomized_response", PLD.from_randomized_response, {"epsilon": 1.0}, "epsilon",
     EPSILONS),
    ("PLD.from_subsampled_gaussian", PLD.from_subsampled_gaussian,
     {"sigma": 1.0, "sampling_probability": 0.1}, "sampling_probability", PROBABILITIES),
    ("PLD.from_approx_dp", PLD.from_approx_dp, {"epsilon": 1.0, "delta": 1e-6}, "delta", DELTAS),
    ("PLD.from_pmfs", PLD.from_pmfs, {"p": [0.5, 0.5], "q": [0.25, 0.75]}, "p",
     [[0.5, 0.6], [-0.5, 1.5], [0.5, NAN], [1.0]]),
    # mechanisms: laws, privacy maps, samplers, encoders, protocols
    ("DiscreteLaplace", mech.DiscreteLaplace, {"scale": 1.0}, "scale", REALS_POSITIVE),
    ("DiscreteGaussian", mech.DiscreteGaussian, {"sigma": 1.0}, "sigma", REALS_POSITIVE),
    ("Skellam", mech.Skellam, {"mu": 1.0}, "mu", REALS_POSITIVE),
    ("PolyaDifference.shares", mech.PolyaDifference, {"shares": 4, "scale": 2.0}, "shares",
     COUNTS),
    ("BinomialNoise.probability", mech.BinomialNoise, {"trials": 8}, "probability",
     [0.0, 1.0, *PROBABILITIES]),
    ("BinaryRandomizedResponse", mech.BinaryRandomizedResponse, {"flip_probability": 0.5},
     "flip_probability", [0.0, *PROBABILITIES]),
    ("RandomizedResponse.k", mech.RandomizedResponse, {"k": 3, "epsilon": 1.0}, "k",
     [1, *COUNTS]),
    ("privacy_map.sensitivity", mech.privacy_map, {"mechanism": mech.Laplace(1.0)},
     "sensitivity", REALS_POSITIVE),
    ("discrete_laplace", samplers.discrete_laplace, {"scale": 2, "rng": _RNG}, "scale",
     [NAN, INF, 0, -1, "2"]),
    ("discrete_gaussian", samplers.discrete_gaussian, {"sigma": 2, "rng": _RNG}, "sigma",
     [NAN, INF, 0, -1, "2"]),
    ("bernoulli_exp", samplers.bernoulli_exp, {"gamma": 1, "rng": _RNG}, "gamma",
     [NAN, INF, -1, "1"]),
    ("randomized_rounding", mech.randomized_rounding, {"x": 0.5, "precision": 8, "rng": _RNG},
     "precision", COUNTS),
    ("mldp_flip_probability", mech.mldp_flip_probability,
     {"epsilon_0": 1.0, "bits": 2, "dimension": 2}, "epsilon_0", [0.0, *EPSILONS]),
    ("secure_aggregation_modulus", mech.secure_aggregation_modulus,
     {"users": 10, "precision": 8, "tau": 5}, "users", COUNTS),
    ("vector_summation_parameters.delta", mech.vector_summation_parameters,
     {"epsilon": 1.0, "delta": 1e-6, "users": 1000, "dimension": 4}, "delta", DELTAS_OPEN),
    ("BinarySummation.users", mech.BinarySummation, {"users": 10, "flip_probability": 0.5},
     "users", COUNTS),
    # amplification by shuffling
    ("amplified_epsilon.local_epsilon", shuffle.amplified_epsilon,
     {"local_epsilon": 1.0, "n": 10**5, "delta": 1e-6}, "local_epsilon", EPSILONS),
    ("amplified_epsilon.n", shuffle.amplified_epsilon,
     {"local_epsilon": 1.0, "n": 10**5, "delta": 1e-6}, "n", COUNTS),
    ("amplified_epsilon.delta", shuffle.amplified_epsilon,
     {"local_epsilon": 1.0, "n": 10**5, "delta": 1e-6}, "delta", DELTAS_OPEN),
    ("amplified_epsilon.bound", shuffle.amplified_epsilon,
     {"local_epsilon": 1.0, "n": 10**5, "delta": 1e-6}, "bound", ["fmt", None]),
    ("max_local_epsilon.epsilon", shuffle.max_local_epsilon,
     {"epsilon": 0.1, "n": 10**5, "delta": 1e-6}, "epsilon", [0.0, *EPSILONS]),
    ("min_batch_size.local_epsilon", shuffle.min_batch_size,
     {"local_epsilon": 1.0, "epsilon": 0.1, "delta": 1e-6}, "local_epsilon", EPSILONS),
    ("shuffled_binary_rr_epsilon.flip_probability", shuffle.shuffled_binary_rr_epsilon,
     {"flip_probability": 0.5, "n": 100, "delta": 1e-6}, "flip_probability",
     [0.0, *PROBABILITIES]),
    ("shuffled_binary_rr_delta.n", shuffle.shuffled_binary_rr_delta,
     {"flip_probability": 0.5, "n": 100, "epsilon": 0.5}, "n", COUNTS),
    # calibration
    ("analytic_gaussian_sigma", calibrate.analytic_gaussian_sigma,
     {"epsilon": 1.0, "delta": 1e-5}, "epsilon", [0.0, *EPSILONS]),
    ("classical_gaussian_sigma.epsilon", calibrate.classical_gaussian_sigma,
     {"epsilon": 1.0, "delta": 1e-5}, "epsilon", [0.0, *EPSILONS]),
    ("classical_gaussian_sigma.delta", calibrate.classical_gaussian_sigma,
     {"epsilon": 1.0, "delta": 1e-5}, "delta", DELTAS_OPEN),
    ("min_gaussian_sigma.delta", calibrate.min_gaussian_sigma,
     {"epsilon": 1.0, "delta": 1e-5}, "delta", DELTAS_OPEN),
    ("min_gaussian_sigma.compositions", calibrate.min_gaussian_sigma,
     {"epsilon": 1.0, "delta": 1e-5}, "compositions", COUNTS),
    ("min_gaussian_sigma.method", calibrate.min_gaussian_sigma,
     {"epsilon": 1.0, "delta": 1e-5}, "method", ["fft", None]),
    ("gaussian_epsilon.sensitivity", calibrate.gaussian_epsilon,
     {"sigma": 1.0, "delta": 1e-5}, "sensitivity", REALS_POSITIVE),
    ("laplace_epsilon.scale", calibrate.laplace_epsilon, {"scale": 1.0}, "scale", REALS_POSITIVE),
    ("min_laplace_scale.delta", calibrate.min_laplace_scale, {"epsilon": 1.0}, "delta", DELTAS),
    ("min_noise_multiplier.steps", calibrate.min_noise_multiplier,
     {"epsilon": 1.0, "delta": 1e-5, "sampling_probability": 0.01}, "steps", COUNTS),
    ("min_binomial_trials.epsilon", calibrate.min_binomial_trials, {"epsilon": 1.0, "delta": 1e-6},
     "epsilon", [NAN, INF, -1.0, 0.0, *NOT_A_NUMBER]),
    ("min_binomial_trials.delta", calibrate.min_binomial_trials, {"epsilon": 1.0, "delta": 1e-6},
     "delta", DELTAS_OPEN),
    ("min_binomial_trials.sensitivity", calibrate.min_binomial_trials,
     {"epsilon": 1.0, "delta": 1e-6}, "sensitivity", COUNTS),
    ("NoisyBitSummation.noise_bits", mech.NoisyBitSummation, {"users": 10, "noise_bits": 2},
     "noise_bits", COUNTS),
    ("tenenbaum_msum_sigma.protocol", shuffle_papers.tenenbaum_msum_sigma,
     {"epsilon": 1.0, "delta": 1e-6}, "protocol", ["rr", None, 3]),
    ("tenenbaum_msum_sigma.batch_size", shuffle_papers.tenenbaum_msum_sigma,
     {"epsilon": 1.0, "delta": 1e-6}, "batch_size", [0, -1, 1.5, NAN, "3", True]),
    ("tenenbaum_batch_size.sigma", shuffle_papers.tenenbaum_batch_size, {"sigma": 2.0}, "sigma",
     REALS_POSITIVE),
    ("garcelon_total_guarantee.composition", shuffle_papers.garcelon_total_guarantee,
     {"batch_length": 10**7, "horizon": 10**8, "flip_probability": 0.5, "m": 1, "d": 1,
      "delta0": 1e-6, "delta_slack": 1e-6}, "composition", ["kov", None]),
    ("garcelon_total_guarantee.horizon", shuffle_papers.garcelon_total_guarantee,
     {"batch_length": 10**7, "horizon": 10**8, "flip_probability": 0.5, "m": 1, "d": 1,
      "delta0": 1e-6, "delta_slack": 1e-6}, "horizon", COUNTS),
    ("garcelon_total_guarantee.delta_slack", shuffle_papers.garcelon_total_guarantee,
     {"batch_length": 10**7, "horizon": 10**8, "flip_probability": 0.5, "m": 1, "d": 1,
      "delta0": 1e-6, "delta_slack": 1e-6}, "delta_slack", DELTAS_OPEN),
    # bandits: environments, policy values, privatizers, algorithms, simulator, experiments
    ("BernoulliBandit.means", bandit_env.BernoulliBandit, {"means": (0.2, 0.8)}, "means",
     [(0.2, 1.5), (), (NAN,), "ab", None]),
    ("ClippedGaussianBandit.sd", bandit_env.ClippedGaussianBandit, {"means": (0.5,), "sd": 0.1}, "sd",
     REALS_POSITIVE),
    ("easy_instance.k", bandit_env.easy_instance, {"k": 3, "rng": _RNG}, "k", COUNTS),
    ("easy_instance.rewards", bandit_env.easy_instance, {"k": 3, "rng": _RNG, "rewards": "bernoulli"},
     "rewards", ["gaussian", None]),
    ("InstanceFamily.name", bandit_env.InstanceFamily, {"name": "easy", "k": 10}, "name",
     ["medium", None]),
    ("Batch.size", Batch, {"arm": 0, "size": 4}, "size", COUNTS),
    ("Batch.arm", Batch, {"arm": 0, "size": 4}, "arm", [-1, 1.5, NAN, None, True]),
    ("RewardBatch.total", RewardBatch, {"size": 4, "total": 2, "binary": True}, "total",
     [-1, 5, 1.5, None]),
    ("PolyaSecureAggregation.epsilon", bandit_privatizers.PolyaSecureAggregation,
     {"epsilon": 1.0}, "epsilon", [NAN, INF, 0.0, -1.0, *NOT_A_NUMBER]),
    ("PolyaSecureAggregation.tail_probability", bandit_privatizers.PolyaSecureAggregation,
     {"epsilon": 1.0, "tail_probability": 0.1}, "tail_probability", [NAN, 0.0, 1.5, -0.1, "0.1"]),
    ("SkellamSecureAggregation.scale_factor", bandit_privatizers.SkellamSecureAggregation,
     {"epsilon": 1.0, "scale_factor": 10.0}, "scale_factor", [NAN, INF, 0.5, -1.0, "10"]),
    ("SkellamSecureAggregation.tau_rule", bandit_privatizers.SkellamSecureAggregation,
     {"epsilon": 1.0, "tau_rule": "paper"}, "tau_rule", ["theory", None]),
    ("DiscreteGaussianSecureAggregation.epsilon", bandit_privatizers.DiscreteGaussianSecureAggregation,
     {"epsilon": 0.5}, "epsilon", [NAN, 0.0, -1.0, INF, None]),
    ("distributed_dp_parameters.users", bandit_privatizers.distributed_dp_parameters,
     {"epsilon": 1.0, "users": 4, "tail_probability": 1e-3}, "users", COUNTS),
    ("ShuffledNoisyBits.delta", bandit_privatizers.ShuffledNoisyBits,
     {"epsilon": 1.0, "delta": 1e-6}, "delta", DELTAS_OPEN),
    ("CentralLaplace.epsilon", bandit_privatizers.CentralLaplace, {"epsilon": 1.0}, "epsilon",
     [NAN, INF, 0.0, -1.0, *NOT_A_NUMBER]),
    ("make_algorithm.name", bandit_mab.make_algorithm, {"name": "se"}, "name", ["ucb", None]),
    ("make_algorithm.epsilon", bandit_mab.make_algorithm, {"name": "dist-dp-se", "epsilon": 1.0},
     "epsilon", [None, NAN, 0.0, -1.0, INF]),
    ("dist_dp_se.batch_base", bandit_mab.dist_dp_se, {"epsilon": 1.0, "batch_base": 2}, "batch_base",
     [1, 0, 2.5, NAN, None]),
    ("dist_dp_se.confidence", bandit_mab.dist_dp_se, {"epsilon": 1.0, "confidence": 0.1},
     "confidence", [0.0, 1.5, NAN, "0.1"]),
    ("dist_rdp_se.delta", bandit_mab.dist_rdp_se, {"epsilon": 1.0, "delta": 1e-6}, "delta",
     DELTAS_OPEN),
    ("DPSE.epsilon", bandit_mab.DPSE, {"epsilon": 1.0}, "epsilon", [NAN, 0.0, -1.0, None]),
    ("sdp_ae.protocol", bandit_mab.sdp_ae, {"epsilon": 1.0, "delta": 1e-6, "batch_size": 10},
     "protocol", ["laplace", None]),
    ("sdp_ae.batch_size", bandit_mab.sdp_ae, {"epsilon": 1.0, "delta": 1e-6, "batch_size": 10},
     "batch_size", COUNTS[:-2]),
    ("chowdhury_radius.confidence", bandit_elimination.chowdhury_radius,
     {"batch_size": 4, "active_arms": 2, "batch_index": 1, "confidence": 0.1,
      "error_law": bandit_privatizers.ErrorLaw(1.0, 1.0)}, "confidence", [0.0, 1.5, NAN]),
    ("tenenbaum_width.pulls", bandit_elimination.tenenbaum_width,
     {"pulls": 10, "error_variance": 1.0, "horizon": 100}, "pulls", COUNTS),
    ("ErrorLaw.radius.failure_probability", bandit_privatizers.ErrorLaw(1.0, 1.0).radius,
     {"failure_probability": 0.1}, "failure_probability", [0.0, 1.5, NAN, None]),
    ("simulate.horizon", bandit_simulate.simulate,
     {"algorithm": bandit_mab.make_algorithm("se"), "environment": bandit_env.BernoulliBandit((0.5,)),
      "horizon": 10}, "horizon", COUNTS),
    ("simulate.runs", bandit_simulate.simulate,
     {"algorithm": bandit_mab.make_algorithm("se"), "environment": bandit_env.BernoulliBandit((0.5,)),
      "horizon": 10}, "runs", COUNTS),
    ("simulate.checkpoints", bandit_simulate.simulate,
     {"algorithm": bandit_mab.make_algorithm("se"), "environment": bandit_env.BernoulliBandit((0.5,)),
      "horizon": 10}, "checkpoints", [0, [3, 2], [0, 5], [5, 11], [1.5, 2.0]]),
    ("log_checkpoints.count", bandit_simulate.log_checkpoints, {"horizon": 100, "count": 10}, "count",
     COUNTS),
    ("reproduce.scale", bandit_experiments.reproduce,
     {"name": "chowdhury2023-fig1", "panels": ()}, "scale", ["huge", None]),
    ("simulate.n_jobs", bandit_simulate.simulate,
     {"algorithm": bandit_mab.make_algorithm("se"), "environment": bandit_env.BernoulliBandit((0.5,)),
      "horizon": 10}, "n_jobs", [0, -2, 1.5, None, "2"]),
    ("simulate.scheduler", bandit_simulate.simulate,
     {"algorithm": bandit_mab.make_algorithm("se"), "environment": bandit_env.BernoulliBandit((0.5,)),
      "horizon": 10}, "scheduler", ["", "nowhere", 5]),
    ("run_tasks.n_jobs", execution.run_tasks, {"function": abs, "tasks": [(1,)]}, "n_jobs",
     [0, -2, 1.5, None, "2"]),
    ("run_tasks.scheduler", execution.run_tasks, {"function": abs, "tasks": [(1,)]}, "scheduler",
     ["", "nowhere", 5, "host:port"]),
    ("run_tasks.executor", execution.run_tasks, {"function": abs, "tasks": [(1,)]}, "executor",
     ["pool", 3]),
    ("run_tasks.function", execution.run_tasks, {"function": abs, "tasks": [(1,)]}, "function",
     [None, 3]),
    ("sweep.spec", bandit_experiments.sweep, {"spec": _SWEEP, "cache": False}, "spec",
     [None, "spec.toml", {"runs": 1}]),
    ("SweepSpec.runs", bandit_experiments.SweepSpec, {"name": "s", "panels": _SWEEP.panels},
     "runs", COUNTS),
    ("SweepSpec.kind", bandit_experiments.SweepSpec, {"name": "s", "panels": _SWEEP.panels},
     "kind", ["lines", None]),
    ("SweepSpec.seed", bandit_experiments.SweepSpec, {"name": "s", "panels": _SWEEP.panels},
     "seed", SEEDS),
    ("SweepSpec.panels", bandit_experiments.SweepSpec, {"name": "s", "panels": _SWEEP.panels},
     "panels", [(), _SWEEP.panels * 2, ("panel",)]),
    ("experiment_spec.name", bandit_experiments.experiment_spec, {"name": "chowdhury2023-fig1"},
     "name", ["fig9", None, "garcelon2022-scaling"]),
    ("experiment_spec.panels", bandit_experiments.experiment_spec, {"name": "chowdhury2023-fig1"},
     "panels", [("z",), ()]),
    ("FixedInstance.means", instance_files.FixedInstance, {"name": "i", "means": (0.2, 0.5)},
     "means", [(0.2, 1.5), (NAN,), None]),
    ("FixedInstance.rewards", instance_files.FixedInstance, {"name": "i", "means": (0.2, 0.5)},
     "rewards", ["gaussian", None]),
    ("load_instance.instance", instance_files.load_instance, {"path": _INSTANCE_FILE}, "instance",
     ["missing.json", "README.md"]),
    # linear bandits: designs, nets, environments, privatizers, algorithms
    ("g_optimal_design.actions", bandit_design.g_optimal_design,
     {"actions": [[1.0, 0.0], [0.0, 1.0]]}, "actions", [[], [1.0, 2.0], [[NAN, 0.0]], None, "ab"]),
    ("g_optimal_design.factor", bandit_design.g_optimal_design,
     {"actions": [[1.0, 0.0], [0.0, 1.0]]}, "factor", [1.0, 0.5, NAN, -1.0]),
    ("g_optimal_design.start", bandit_design.g_optimal_design,
     {"actions": [[1.0, 0.0], [0.0, 1.0]]}, "start", ["dense", None]),
    ("support_size_bound.d", bandit_design.support_size_bound, {"d": 3}, "d", COUNTS),
    ("ball_net.zeta", bandit_design.ball_net, {"d": 2, "zeta": 0.5}, "zeta", [0.0, 1.5, NAN, -1.0]),
    ("sphere_net.d", bandit_design.sphere_net, {"d": 2, "zeta": 0.5}, "d", COUNTS),
    ("greedy_net.zeta", bandit_design.greedy_net, {"points": [[0.0, 1.0]], "zeta": 0.5}, "zeta",
     REALS_POSITIVE),
    ("LinearBandit.actions", linear_env.LinearBandit, {"actions": [[1.0, 0.0]], "theta": [0.5, 0.5]},
     "actions", [[[2.0, 0.0]], [], [[NAN, 0.0]]]),
    ("LinearBandit.theta", linear_env.LinearBandit, {"actions": [[1.0, 0.0]], "theta": [0.5, 0.5]},
     "theta", [[2.0, 0.0], [1.0], [NAN, 0.0]]),
    ("sphere_instance.k", linear_env.sphere_instance, {"k": 3, "d": 2, "rng": _RNG}, "k", COUNTS),
    ("DistributedLinearBandit.heterogeneity", linear_env.DistributedLinearBandit,
     {"actions": [[1.0, 0.0]], "theta": [0.5, 0.5]}, "heterogeneity", REALS_POSITIVE),
    ("LinearInstanceFamily.kind", linear_env.LinearInstanceFamily, {"kind": "sphere", "k": 3, "d": 2},
     "kind", ["ball", None]),
    ("make_linear_algorithm.name", bandit_linear.make_linear_algorithm, {"name": "dpe"}, "name",
     ["ucb", None]),
    ("make_linear_algorithm.epsilon", bandit_linear.make_linear_algorithm,
     {"name": "hanna-central", "epsilon": 1.0}, "epsilon", [NAN, 0.0, -1.0, None]),
    ("PhasedElimination.mode", bandit_linear.PhasedElimination, {"model": "central", "epsilon": 1.0},
     "mode", ["exact", None]),
    ("PhasedElimination.model", bandit_linear.PhasedElimination, {"model": "central", "epsilon": 1.0},
     "model", ["global", None]),
    ("DistributedPhasedElimination.alpha", bandit_linear.DistributedPhasedElimination,
     {"model": "central", "epsilon": 1.0, "delta": 0.25}, "alpha", [0.0, 1.0, NAN]),
    ("DistributedPhasedElimination.local_constant", bandit_linear.DistributedPhasedElimination,
     {"model": "local", "epsilon": 1.0, "delta": 0.25}, "local_constant", ["thm3", None]),
    ("LaplaceSum.epsilon", linear_privatizers.LaplaceSum, {"epsilon": 1.0}, "epsilon",
     [NAN, 0.0, -1.0, None]),
    ("ShuffledLaplaceSum.delta", linear_privatizers.ShuffledLaplaceSum,
     {"epsilon": 1.0, "delta": 1e-6}, "delta", DELTAS_OPEN),
    ("CentralGaussianAverage.delta", linear_privatizers.CentralGaussianAverage,
     {"epsilon": 1.0, "delta": 1e-5}, "delta", DELTAS_OPEN),
    ("ShuffleVectorAverage.epsilon", linear_privatizers.ShuffleVectorAverage,
     {"epsilon": 1.0, "delta": 0.1}, "epsilon", [15.0, 0.0, NAN]),
    ("laplace_sum_width.terms", linear_privatizers.laplace_sum_width,
     {"terms": 5, "weight": 1.0, "scale": 1.0, "log_term": 2.0}, "terms", COUNTS),
    ("dpdpe_width.confidence", linear_dpdpe.dpdpe_width,
     {"dimension": 2, "users": 2, "plays": 10.0, "heterogeneity": 0.1, "width_sigma": 0.0,
      "confidence": 0.01}, "confidence", [0.0, 1.0, NAN]),
    ("phase_schedule.horizon", linear_dpdpe.phase_schedule, {"horizon": 100, "d": 2, "alpha": 0.8},
     "horizon", COUNTS),
    ("batch_base.horizon", linear_hanna.batch_base, {"horizon": 100}, "horizon", COUNTS),
    ("hanna_width.model", linear_hanna.hanna_width,
     {"model": "none", "mode": "paper", "dimension": 2, "base": 3.0, "batch": 1, "active": 2,
      "horizon": 100, "action_sizes": [1, 1], "epsilon": None}, "model", ["global", None]),
    # auditing
    ("clopper_pearson.trials", auditing.clopper_pearson, {"successes": 3, "trials": 10},
     "trials", COUNTS),
    ("clopper_pearson.successes", auditing.clopper_pearson, {"successes": 3, "trials": 10},
     "successes", [-1, 11, 1.5, "3", None, True, NAN]),
    ("clopper_pearson.confidence", auditing.clopper_pearson, {"successes": 3, "trials": 10},
     "confidence", [0.0, 1.0, *PROBABILITIES]),
    ("clopper_pearson_lower.alpha", auditing.clopper_pearson_lower,
     {"successes": 3, "trials": 10, "alpha": 0.05}, "alpha", [0.0, 1.0, *PROBABILITIES]),
    ("epsilon_lower_bound.delta", auditing.epsilon_lower_bound,
     {"p_lower": 0.5, "p_prime_upper": 0.1}, "delta", DELTAS),
    ("epsilon_lower_bound.p_lower", auditing.epsilon_lower_bound,
     {"p_lower": 0.5, "p_prime_upper": 0.1}, "p_lower", PROBABILITIES),
    ("audit.epsilon", auditing.audit, _AUDIT, "epsilon", EPSILONS),
    ("audit.delta", auditing.audit, _AUDIT, "delta", DELTAS),
    ("audit.chunk_samples", auditing.audit, {**_AUDIT, "chunk_samples": 40}, "chunk_samples",
     [0, -1, 1.5, "7"]),
    ("audit.n_jobs", auditing.audit, _AUDIT, "n_jobs", [0, -2, 1.5, "2"]),
    ("audit.scheduler", auditing.audit, _AUDIT, "scheduler", ["nowhere", 5]),
    ("audit.samples", auditing.audit, _AUDIT, "samples", [*COUNTS, 9]),
    ("audit.confidence", auditing.audit, _AUDIT, "confidence", [0.0, 1.0, *PROBABILITIES]),
    ("audit.seed", auditing.audit, _AUDIT, "seed", SEEDS),
    ("audit.events", auditing.audit, _AUDIT, "events", ["best", [], [1], None]),
    ("audit.sampler", auditing.audit, _AUDIT, "sampler", [None, 3]),
    ("audit_curve.profile", auditing.audit_curve, _CURVE, "profile", [1.0, None, "pure"]),
    ("audit_curve.epsilons", auditing.audit_curve, _CURVE, "epsilons",
     [[], [-1.0], [NAN], "0.5", [0.1] * 41]),
    ("audit_curve.samples", auditing.audit_curve, _CURVE, "samples", COUNTS),
    ("audit_curve.confidence", auditing.audit_curve, _CURVE, "confidence", PROBABILITIES),
    ("audit_interactive.runs", audit_interactive, _INTERACTIVE, "runs", [*COUNTS, 9]),
    ("audit_interactive.epsilon", audit_interactive, _INTERACTIVE, "epsilon", EPSILONS),
    ("audit_interactive.delta", audit_interactive, _INTERACTIVE, "delta", DELTAS),
    ("audit_interactive.n_jobs", audit_interactive, _INTERACTIVE, "n_jobs",
     [0, -2, 1.5, None, "2"]),
    ("audit_interactive.seed", audit_interactive, _INTERACTIVE, "seed", SEEDS),
    ("audit_interactive.statistic", audit_interactive, _INTERACTIVE, "statistic", [None, 1]),
    ("audit_interactive.confidence", audit_interactive, _INTERACTIVE, "confidence",
     PROBABILITIES),
    ("exact_epsilon.delta", auditing.exact_epsilon, {"p": [0.5, 0.5], "q": [0.25, 0.75]},
     "delta", DELTAS),
    ("exact_delta.epsilon", auditing.exact_delta, {"p": [0.5, 0.5], "q": [0.25, 0.75],
                                                    "epsilon": 0.1}, "epsilon", EPSILONS),
    # bandits.contextual (garcelon 2022 SBLB)
    ("contextual.flip_probability", contextual_params.flip_probability,
     {"epsilon_0": 1.0, "m": 1, "d": 2}, "epsilon_0", [0.0, *EPSILONS]),
    ("contextual.flip_probability.d", contextual_params.flip_probability,
     {"epsilon_0": 1.0, "m": 1, "d": 2}, "d", COUNTS),
    ("contextual.local_epsilon", contextual_params.local_epsilon, {"p": 0.5, "m": 1, "d": 2}, "p",
     [0.0, *PROBABILITIES]),
    ("contextual.regularizer.t", contextual_params.regularizer,
     {"t": 10, "delta": 0.1, "m": 1, "p": 0.5, "lam": 1.0}, "t", [NAN, INF, -1.0, *NOT_A_NUMBER]),
    ("contextual.regularizer.delta", contextual_params.regularizer,
     {"t": 10, "delta": 0.1, "m": 1, "p": 0.5, "lam": 1.0}, "delta", DELTAS_OPEN),
    ("contextual.regularizer.p", contextual_params.regularizer,
     {"t": 10, "delta": 0.1, "m": 1, "p": 0.5, "lam": 1.0}, "p", [1.0, *PROBABILITIES]),
    ("contextual.confidence_radius.t", contextual_params.confidence_radius,
     {"t": 10, "delta": 0.1, "sigma": 0.5, "d": 2, "L": 1.0, "S": 1.0, "m": 1, "p": 0.5,
      "lam_t": 1.0}, "t", [0.0, *REALS_POSITIVE]),
    ("contextual.confidence_radius.lam_t", contextual_params.confidence_radius,
     {"t": 10, "delta": 0.1, "sigma": 0.5, "d": 2, "L": 1.0, "S": 1.0, "m": 1, "p": 0.5,
      "lam_t": 1.0}, "lam_t", REALS_POSITIVE),
    ("contextual.batch_length.form", contextual_params.batch_length,
     {"epsilon": 0.5, "delta0": 1e-6, "T": 10**4, "m": 1, "d": 1, "p": 0.5}, "form",
     ["paper", None, 1]),
    ("sblb_parameters.epsilon", contextual_params.sblb_parameters,
     {"epsilon": 0.001, "delta": 1e-6, "T": 10**4, "d": 2}, "epsilon", [0.0, 0.5, *EPSILONS]),
    ("sblb_parameters.delta", contextual_params.sblb_parameters,
     {"epsilon": 0.001, "delta": 1e-6, "T": 10**4, "d": 2}, "delta", DELTAS_OPEN),
    ("sblb_parameters.T", contextual_params.sblb_parameters,
     {"epsilon": 0.001, "delta": 1e-6, "T": 10**4, "d": 2}, "T", COUNTS),
    ("sblb_parameters.d", contextual_params.sblb_parameters,
     {"epsilon": 0.001, "delta": 1e-6, "T": 10**4, "d": 2}, "d", COUNTS),
    ("sblb_parameters.regime", contextual_params.sblb_parameters,
     {"epsilon": 0.001, "delta": 1e-6, "T": 10**4, "d": 2}, "regime", ["cor9", None]),
    ("contextual.debias.p", contextual_reports.debias,
     {"counts": [[1, 1]], "users": 1, "d": 1, "bits": 1, "p": 0.5}, "p", [1.0, *PROBABILITIES]),
    ("contextual.debias.counts", contextual_reports.debias,
     {"counts": [[1, 1]], "users": 1, "d": 1, "bits": 1, "p": 0.5}, "counts", [[[1, 1, 1]]]),
    ("contextual.randomize_totals.p", contextual_reports.randomize_totals,
     {"ones": [1], "users": 2, "bits": 1, "p": 0.5, "rng": np.random.default_rng(0)}, "p",
     PROBABILITIES),
    ("ContextualLinearBandit.theta", bandit_contextual.ContextualLinearBandit,
     {"theta": (0.5, 0.5), "n_arms": 3}, "theta", [(1.0, 1.0), (-0.5,), (), (NAN,)]),
    ("ContextualLinearBandit.n_arms", bandit_contextual.ContextualLinearBandit,
     {"theta": (0.5, 0.5), "n_arms": 3}, "n_arms", COUNTS),
    ("ContextualInstanceFamily.generator", bandit_contextual.ContextualInstanceFamily,
     {"dimension": 2, "n_arms": 3}, "generator", ["uniform", None]),
    ("ContextualInstanceFamily.dimension", bandit_contextual.ContextualInstanceFamily,
     {"dimension": 2, "n_arms": 3}, "dimension", COUNTS),
    ("SBLB.epsilon", bandit_contextual.SBLB, {"epsilon": 0.01}, "epsilon", [0.0, *EPSILONS]),
    ("SBLB.regime", bandit_contextual.SBLB, {"epsilon": 0.01}, "regime", ["cor9", None]),
    ("SBLB.radius_scale", bandit_contextual.SBLB, {"epsilon": 0.01}, "radius_scale",
     REALS_POSITIVE),
    ("SBLB.batch_length", bandit_contextual.SBLB, {"epsilon": 0.01}, "batch_length",
     [c for c in COUNTS if c is not None]),
    ("LinUCB.confidence", bandit_contextual.LinUCB, {}, "confidence", [0.0, 1.0, *PROBABILITIES]),
    ("LDPLinUCB.epsilon", bandit_contextual.LDPLinUCB, {"epsilon": 1.0}, "epsilon",
     [0.0, *EPSILONS]),
    ("make_contextual_algorithm.name", bandit_contextual.make_contextual_algorithm,
     {"name": "linucb"}, "name", ["oful", None]),
    ("make_contextual_algorithm.epsilon", bandit_contextual.make_contextual_algorithm,
     {"name": "ldp-linucb", "epsilon": 1.0}, "epsilon", [None, 0.0, *EPSILONS]),
    ("simulate_contextual.horizon", bandit_contextual.simulate_contextual,
     {"algorithm": bandit_contextual.LinUCB(), "horizon": 50,
      "environment": bandit_contextual.ContextualInstanceFamily(2, 2)}, "horizon", COUNTS),
    ("simulate_contextual.runs", bandit_contextual.simulate_contextual,
     {"algorithm": bandit_contextual.LinUCB(), "horizon": 50,
      "environment": bandit_contextual.ContextualInstanceFamily(2, 2)}, "runs", COUNTS),
    ("simulate_contextual.environment", bandit_contextual.simulate_contextual,
     {"algorithm": bandit_contextual.LinUCB(), "horizon": 50,
      "environment": bandit_contextual.ContextualInstanceFamily(2, 2)}, "environment",
     [None, 3]),
    # testing: assertions and strategies (bounds validated eagerly, at the call)
    ("assert_satisfies.epsilon", dp_testing.assert_satisfies, _SATISFIES, "epsilon", EPSILONS),
    ("assert_satisfies.delta", dp_testing.assert_satisfies, _SATISFIES, "delta", DELTAS),
    ("assert_satisfies.samples", dp_testing.assert_satisfies, _SATISFIES, "samples",
     [0, -1, 1.5, NAN, INF, "3", True, 9]),
    ("assert_satisfies.confidence", dp_testing.assert_satisfies, _SATISFIES, "confidence",
     [0.0, 1.0, NAN, -0.1, 1.1, INF, "1.0", True]),
    ("assert_satisfies.seed", dp_testing.assert_satisfies, _SATISFIES, "seed", SEEDS),
    ("assert_satisfies.sampler", dp_testing.assert_satisfies, _SATISFIES, "sampler", [None, 3]),
    ("assert_satisfies.label", dp_testing.assert_satisfies, _SATISFIES, "label", [3, b"x"]),
    ("assert_conservative.upper_bound", dp_testing.assert_conservative, _CONSERVATIVE,
     "upper_bound", _REALS),
    ("assert_conservative.exact", dp_testing.assert_conservative, _CONSERVATIVE, "exact", _REALS),
    ("assert_conservative.name", dp_testing.assert_conservative, _CONSERVATIVE, "name",
     ["", None, 3]),
    ("assert_conservative.rel_tol", dp_testing.assert_conservative, _CONSERVATIVE, "rel_tol",
     _TOLERANCES),
    ("assert_conservative.abs_tol", dp_testing.assert_conservative, _CONSERVATIVE, "abs_tol",
     _TOLERANCES),
    ("epsilons.min_value", dp_strategies.epsilons, {}, "min_value", [-1.0, NAN, INF, "0", None]),
    ("epsilons.max_value", dp_strategies.epsilons, {"min_value": 1.0}, "max_value",
     [0.5, -1.0, NAN, INF, "0", None]),
    ("deltas.max_value", dp_strategies.deltas, {}, "max_value", DELTAS),
    ("deltas.min_value", dp_strategies.deltas, {}, "min_value", [0.2, *DELTAS]),
    ("orders.min_value", dp_strategies.orders, {}, "min_value", [0.5, NAN, INF, "2", None]),
    ("orders.max_value", dp_strategies.orders, {"min_value": 2.0}, "max_value",
     [2.0, 1.5, NAN, INF, "3", None]),
    ("sensitivities.max_value", dp_strategies.sensitivities, {}, "max_value",
     [0.0, -1.0, NAN, INF, "1", None]),
    ("guarantees.types", dp_strategies.guarantees, {}, "types",
     [PureDP, [], [float], "PureDP", 3]),
    ("guarantees.max_delta", dp_strategies.guarantees, {}, "max_delta", DELTAS_OPEN),
    ("guarantees.max_epsilon", dp_strategies.guarantees, {}, "max_epsilon", EPSILONS),
    ("neighbouring_datasets.elements", dp_strategies.neighbouring_datasets, {"elements": dp_strategies.epsilons()},
     "elements", [[0, 1], None, 3]),
    ("neighbouring_datasets.relation", dp_strategies.neighbouring_datasets,
     {"elements": dp_strategies.epsilons()}, "relation", ["swap", None, 3]),
    ("neighbouring_datasets.min_size", dp_strategies.neighbouring_datasets,
     {"elements": dp_strategies.epsilons()}, "min_size", COUNTS),
    ("neighbouring_datasets.max_size", dp_strategies.neighbouring_datasets,
     {"elements": dp_strategies.epsilons(), "min_size": 2}, "max_size", [1, 0, 1.5, "3", None]),
    ("neighbouring_reward_streams.horizon", dp_strategies.neighbouring_reward_streams,
     {"horizon": 5}, "horizon", COUNTS),
    ("neighbouring_reward_streams.kind", dp_strategies.neighbouring_reward_streams,
     {"horizon": 5}, "kind", ["gaussian", None, 1]),
    ("bounded_vectors.dimension", dp_strategies.bounded_vectors, {"dimension": 3}, "dimension",
     COUNTS),
    ("bounded_vectors.norm", dp_strategies.bounded_vectors, {"dimension": 3}, "norm",
     ["linf", None, 2]),
    ("bounded_vectors.bound", dp_strategies.bounded_vectors, {"dimension": 3}, "bound",
     REALS_POSITIVE),
    ("neighbouring_bounded_vectors.max_users", dp_strategies.neighbouring_bounded_vectors,
     {"dimension": 3, "min_users": 2}, "max_users", [1, 0, 1.5, None]),
    ("mechanisms.types", dp_strategies.mechanisms, {}, "types", [[], [PureDP], "Laplace", PureDP]),
    # regret bounds, claims and the pieces the claims needed
    ("dpdpe_thm4.T", claims_bounds.dpdpe_thm4, {"T": 100, "d": 2, "k": 10}, "T", COUNTS),
    ("dpdpe_thm5.epsilon", claims_bounds.dpdpe_thm5,
     {"T": 100, "d": 2, "k": 10, "epsilon": 1.0, "delta": 0.1}, "epsilon", [0.0, *EPSILONS]),
    ("dpdpe_thm6.delta", claims_bounds.dpdpe_thm6,
     {"T": 100, "d": 2, "k": 10, "epsilon": 1.0, "delta": 0.1}, "delta", DELTAS_OPEN),
    ("garcelon_cor8.epsilon", claims_bounds.garcelon_cor8, {"T": 10 ** 4, "epsilon": 0.003, "d": 2},
     "epsilon", [0.1, *EPSILONS]),
    ("hanna_thm1.constant", claims_bounds.hanna_thm1, {"T": 100, "epsilon": 1.0, "constant": 1.0},
     "constant", REALS_POSITIVE),
    ("tenenbaum_thm31.batch_size", claims_bounds.tenenbaum_thm31,
     {"gaps": [0.0, 0.5], "T": 100, "sigma": 1.0, "batch_size": 2, "constant": 1.0}, "batch_size",
     COUNTS),
    ("chowdhury_lemma2.gaps", claims_bounds.chowdhury_lemma2,
     {"gaps": [0.0, 0.5], "T": 100, "sigma": 1.0, "h": 1.0, "constant": 1.0}, "gaps",
     [[], [NAN], [-1.0], "ab"]),
    ("returning_users_sigma.participations", returning_users.returning_users_sigma,
     {"epsilon": 1.0, "delta": 1e-6, "participations": 2}, "participations", COUNTS),
    ("returning_users_sigma.route", returning_users.returning_users_sigma,
     {"epsilon": 1.0, "delta": 1e-6, "participations": 2}, "route", ["rdp", None, 1]),
    ("check_paper.paper", check_paper, {"paper": "tenenbaum", "keys": ["cor32-batch"]}, "paper",
     ["nobody", None, 3]),
    ("check_paper.scale", check_paper, {"paper": "tenenbaum", "keys": ["cor32-batch"]}, "scale",
     ["huge", None]),
    ("DoublingTrick.first_horizon", tenenbaum_extensions.DoublingTrick,
     {"algorithm": bandit_mab.make_algorithm("ae"), "first_horizon": 4}, "first_horizon",
     [1, 0, 1.5, NAN, "3", None, True]),
]

CASES = [
    pytest.param(function, valid, parameter, bad, id=f"{label}={bad!r}")
    for label, function, valid, parameter, bads in TABLE
    for bad in bads
]


@pytest.mark.parametrize("function, valid, parameter, bad", CASES)
def test_bad_argument_is_refused_by_name(function: Callable[..., Any], valid: dict[str, Any],
                                         parameter: str, bad: Any) -> None:
    kwargs = {**valid, parameter: bad}
    if parameter == "steps" and "steps" not in valid:
        kwargs.setdefault("steps", bad)
    with pytest.raises((ValueError, TypeError)) as info:
        function(**kwargs)
    assert parameter in str(info.value), f"message does not name {parameter!r}: {info.value}"


@pytest.mark.parametrize("label, function, valid", [
    pytest.param(label, function, valid, id=label) for label, function, valid, _, _ in TABLE
])
def test_valid_arguments_are_accepted(label: str, function: Callable[..., Any],
                                      valid: dict[str, Any]) -> None:
    """The table's baseline is valid, so each refusal above is due to the bad value alone."""
    if label == "min_noise_multiplier.steps":
        valid = {**valid, "steps": 10, "method": "rdp"}
    function(**valid)
