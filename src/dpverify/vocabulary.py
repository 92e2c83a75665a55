"""The words of dpverify's public API: each parameter name, and the one thing it means.

Every public parameter name (of everything in an ``__all__`` of a public module, and
every option of the ``dpverify`` command, ``--local-epsilon`` read as
``local_epsilon``) is a key of :data:`PARAMETERS`, and ``tests/test_vocabulary.py``
holds the code base to it. A word means one thing everywhere; when a function needs
a different thing, it gets a different word. :data:`SYNONYMS` lists spellings that
other libraries (or older versions of dpverify) use for a word of ours: they are
refused in signatures, and the ones dpverify used to accept still work for one
release with a :class:`DeprecationWarning` (``dpverify._deprecation``).

Conventions behind the words
----------------------------
* A **probability that a stated bound holds** is ``confidence``, in [0.5, 1); the
  **probability that it fails** is ``failure_probability``. A significance level is
  never ``alpha``: where it belongs to a bound it is said as ``confidence = 1 − level``.
* Greek letters are spelled out (``epsilon``, ``delta``, ``sigma``, ``rho``); a
  single-letter name appears only for the neighbouring pair of inputs ``x`` and
  ``x_prime`` (the first and second input of the pair, as in the papers' x and x′),
  and inside private helpers that implement one cited equation.
* Counts are plural nouns of what is counted (``users``, ``categories``,
  ``samples``, ``trials``); the number of repetitions of a composed mechanism is
  ``count``. DP-SGD's number of training steps is ``steps``, the one training-loop
  term; the per-epoch view is ``epochs``.
* The neighbouring relation is ``neighbouring``, a :class:`dpverify.Neighbouring`
  or its string. The default is **add-remove** where a dataset's size can change
  (the ``PrivacyAccountant``, subsampled-mechanism constructors: as dp_accounting and
  Opacus) and **replace-one** where the input is a pair of the same size
  (``are_neighbours``, privacy maps, auditing, the testing strategies);
  :mod:`dpverify.neighbouring` says why.
* A sampling probability is ``sampling_probability``; ``PrivacyAccountant.step``
  keeps Opacus's ``sample_rate``, the one documented exception.
* The inputs of a neighbouring pair are ``x`` and ``x_prime``; what they produce is
  ``samples`` / ``samples_prime`` (outputs) or ``pmf`` / ``pmf_prime`` (exact laws); a
  point where a law is evaluated is an ``outcome``.

Standard library only: this module sits at the bottom of the package.
"""

from __future__ import annotations

__all__ = ["GENERAL", "BANDITS", "PARAMETERS", "GENERAL_SYNONYMS", "BANDIT_SYNONYMS",
           "SYNONYMS"]

#: Words of the accounting, mechanism, auditing, testing, execution and CLI layers (and
#: the words every layer shares: ``epsilon``, ``users``, ``horizon``, ``rng``, ...).
GENERAL: dict[str, str] = {
    # --- privacy parameters and guarantees --------------------------------------------
    "epsilon": "privacy loss bound ε ≥ 0 (natural log); the target or the claimed ε, as the function says",
    "delta": "δ in [0, 1): the probability mass by which an (ε, δ) guarantee may fail",
    "epsilons": "several ε values (an RDP curve's ε at each order, or ε points of an audited curve)",
    "local_epsilon": "ε₀ of each user's local randomizer (local DP), before any amplification",
    "max_epsilon": "largest ε a strategy draws (inclusive)",
    "max_delta": "largest δ a strategy draws",
    "max_rho": "largest zCDP ρ a strategy draws",
    "rho": "zero-concentrated DP parameter ρ ≥ 0 (Bun & Steinke 2016)",
    "xi": "the additive ξ ≥ 0 of (ξ, ρ)-zCDP",
    "order": "one Rényi order α > 1",
    "orders": "Rényi orders α > 1 at which an RDP curve is computed or read",
    "zcdp": "a ZCDP guarantee value",
    "guarantee": "a privacy guarantee value (PureDP, ApproxDP, ZCDP, RDPCurve, PrivacyProfile)",
    "guarantees": "several guarantee values (composed together)",
    "guarantee_type": "a guarantee class (the target type of a registered privacy map)",
    "curve": "an RDP curve (RDPCurve value)",
    "curves": "several RDP curves (composed together)",
    "profile": "a privacy profile δ(ε) (PrivacyProfile value), e.g. the claimed one of an audit",
    "pld": "a privacy loss distribution (PrivacyLossDistribution)",
    "plds": "several privacy loss distributions (composed together)",
    "target_epsilon": "the ε at which a δ is sought",
    "target_delta": "the δ at which an ε is sought",
    "total_epsilon": "ε budget of a whole composition",
    "total_delta": "δ budget of a whole composition",
    "step_delta": "δ spent by each step of a composition",
    "delta_slack": "the extra δ′ traded for a smaller ε in advanced composition (Dwork, Rothblum & Vadhan 2010)",
    "pure_epsilon": "ε of a pure-DP base mechanism, when its subsampled RDP uses the pure-DP bound",
    "target": "the guarantee type a privacy map is asked for",
    "relative_error": "relative numerical error bound carried by a privacy profile",
    "lower": "the lower end of an interval (a bound's direction is in the field name)",
    "upper": "the upper end of an interval",
    "description": "human-readable text describing a value",
    "neighbouring": "the neighbouring relation, a Neighbouring or 'add-remove' / 'replace-one' / 'replace-special' (default: see dpverify.neighbouring)",
    "x": "the first input of a neighbouring pair (a dataset, or the mechanism's input on it)",
    "x_prime": "the second input of a neighbouring pair (x′)",
    # --- mechanisms and noise -----------------------------------------------------------
    "mechanism": "a mechanism value (or, in the CLI, the name of a mechanism)",
    "mechanism_type": "a mechanism class (the key of a registered privacy map or sampler)",
    "sensitivity": "sensitivity Δ > 0 of the query (ℓ1 for Laplace-type noise, ℓ2 for Gaussian unless the name says)",
    "sensitivities": "several sensitivities, one per component",
    "l1_sensitivity": "ℓ1 sensitivity of a vector query",
    "l2_sensitivity": "ℓ2 sensitivity of a vector query",
    "sigma": "standard deviation σ > 0 of Gaussian noise (the discrete Gaussian's σ parameter for discrete noise)",
    "mu": "μ of a law's standard parametrisation: a Skellam law's mean, or μ = Δ/σ of μ-Gaussian DP",
    "gamma": "γ ≥ 0 of Bernoulli(exp(−γ)) (Canonne, Kamath & Steinke 2020, Alg. 1)",
    "tau": "τ ≥ 0, the bound on a secure-aggregation total's noise that the modulus leaves room for (Chowdhury & Zhou 2023, Alg. 1)",
    "epsilon_hat": "the intermediate ε̂ of the vector-summation protocol's parameter choice (Balle et al. 2020)",
    "noise_bits": "number of fair noise coins added to a batch of shuffled bits",
    "x_sum": "the sum of the users' inputs (the aggregate before noise)",
    "outcome": "a point of a law's support or output space (where a pmf, density or cdf is evaluated)",
    "outcomes": "several outcomes (an array), where a pmf or density is evaluated elementwise",
    "variance": "variance of a noise law",
    "scale": "a positive scale parameter: Laplace-type noise's b (density ∝ exp(−|x|/b)), or a score's standardising divisor",
    "noise_multiplier": "Gaussian noise standard deviation divided by the clipping norm (DP-SGD)",
    "flip_probability": "probability in [0, 1/2] that randomized response flips the bit",
    "categories": "number k ≥ 2 of categories (outputs) of k-ary randomized response or a categorical model",
    "probabilities": "a probability vector (weights of a mixture, or the law of a finite output)",
    "probability": "the probability parameter of a Bernoulli, binomial or Pólya (negative binomial) law, in [0, 1]",
    "count": "number of repetitions of a composed mechanism (≥ 1)",
    "counts": "several repetition counts, or the observed counts of an estimator, as the function says",
    "size": "number of samples to draw (a numpy ``size``: an int or a shape)",
    "dimension": "dimension d ≥ 1 of a vector (of a query, a context or a parameter)",
    "norm": "which norm bounds a vector, 'l1', 'l2' or 'linf'",
    "norm_bound": "upper bound on the norm of each input vector",
    "bound": "the named upper bound to use (shuffle amplification: 'fmt2021', 'best', ...), or the largest absolute value, as the function says",
    "precision": "fixed-point precision: the number of discretisation levels of a value",
    "modulus": "the modulus of modular (secure-aggregation) arithmetic",
    "messages": "the messages the users send (the input of a shuffler or secure aggregator)",
    "codes": "the integer-encoded messages of secure aggregation",
    "noise": "a noise law (or noise values) added to an input",
    "shift": "the shift between the two laws of a shifted-noise pair",
    "offset": "smallest value of a finite law's support (its pmf starts there)",
    "bits": "number of bits of a binary encoding, or a bit array, as the function says",
    "context": "a context vector (input of a local privatizer)",
    "context_bound": "upper bound on the norm of a context vector",
    "reward": "one reward value in the reward range",
    "rewards": "reward values (or reward streams, for neighbouring reward streams)",
    "users": "number of users (each holding one record or one report)",
    "max_users": "largest number of users a strategy draws",
    "min_users": "smallest number of users a strategy draws",
    "per_user": "values contributed by each user (one row per user)",
    "aggregate": "the aggregate (sum) the analyser receives",
    "totals": "aggregated sums (one per repetition)",
    "total_law": "the law of the aggregated total",
    "reports": "the users' randomized reports",
    "vectors": "input vectors, one per user",
    "ones": "number of ones among the inputs",
    "exact": "True: compute exactly (mpmath or fractions) rather than in floating point",
    "shares": "number of shares a Pólya difference (or a distributed noise) is split into",
    "terms": "number of terms summed",
    "integers": "True: draw integer values only",
    # --- accounting -----------------------------------------------------------------------
    "event": "a privacy event (a description of what was run, accounted by the accountant)",
    "events": "several privacy events, or (auditing) the output events to test, as the function says",
    "method": "the accounting method, 'pld', 'rdp', 'zcdp' (or 'all' in the CLI)",
    "sampling_probability": "probability q in [0, 1] that each record is in a Poisson-subsampled batch",
    "sample_rate": "Opacus's name for the sampling probability, kept only in PrivacyAccountant.step (the one documented exception)",
    "population_size": "number N of records sampling draws from (sampling without replacement)",
    "sample_size": "number of records drawn without replacement",
    "dataset_size": "number of records of the training set (DP-SGD)",
    "batch_size": "number of records (or users) in each batch of a batched algorithm (DP-SGD's expected batch, a shuffler's batch)",
    "batch_sizes": "several batch sizes",
    "steps": "number of DP-SGD training steps (the one training-loop word; elsewhere repetitions are count)",
    "step_counts": "number of steps at each level of tree aggregation",
    "epochs": "number of DP-SGD passes over the data (steps = epochs / sampling probability)",
    "group_size": "size of the group of records that may change (group privacy)",
    "value_discretization_interval": "width of the PLD's privacy-loss grid (smaller: tighter, slower)",
    "tail_mass_truncation": "probability mass a PLD may drop at its tails (added to δ, never lost)",
    "directions": "which directions of a PLD are kept, 'both', 'forward' or 'backward'",
    "recipe": "how a PLD rebuilds itself at another grid interval",
    "rebuild": "a function rebuilding a PLD at another grid interval",
    "symmetric": "True: the PLD is the same in both directions",
    "other": "the second operand (composed with this one)",
    "value": "the value to parse or convert",
    "state": "a saved accountant state (from state_dict)",
    "data": "a decoded JSON object",
    "base": "the guarantee of the base (unsubsampled) mechanism",
    "mean": "mean number of repetitions of repeat-and-select",
    "shape": "shape parameter r > 0 of a negative-binomial-type law (a Pólya law; repeat-and-select's repetitions)",
    "randomizer": "which local randomizer, 'generic', 'binary-rr' or 'k-rr' (shuffle amplification)",
    "randomizer_family": "the randomizer family a local ε is sought for",
    "randomizers": "the randomizer families a shuffle bound supports",
    "name": "a name (for messages or a registry key)",
    "supported": "the values a function supports",
    "subject": "what a message is about (the function or mechanism named in it)",
    "check": "a function checking a bound's validity conditions",
    "meets": "a function telling whether a bound meets a target",
    "approximate": "True: the bound is a numerical approximation, not a closed form",
    "replace": "True: replace a registered entry of the same name",
    "false_positive_rate": "a false positive rate (type I error) in [0, 1] of a hypothesis test",
    "false_positive_rates": "several false positive rates",
    "points": "number of points of a curve",
    "bins": "number of bins of a discretised law",
    "rtol": "relative tolerance of a numerical search or comparison",
    "atol": "absolute tolerance of a numerical comparison",
    "inverse": "True: solve the inverse problem (the largest local ε for a target central ε)",
    "spec": "a JSON specification file",
    "horizon": "number of rounds T ≥ 1 an algorithm runs for",
    "variant": "which variant of a paper's statement",
    "protocol": "which protocol of a paper",
    "reading": "which reading of a paper's (ambiguous) statement",
    "composition": "which composition theorem to use, 'basic' or 'advanced'",
    "batch_length": "number of rounds in one batch of a batched algorithm",
    "correlation": "correlation between the coordinates of a vector",
    # --- auditing -------------------------------------------------------------------------
    "sampler": "a function (x, rng, size) → outputs of the mechanism under audit",
    "samples": "number of outputs drawn per input of the pair (or the outputs themselves, as the function says)",
    "samples_prime": "outputs drawn on x′",
    "max_samples": "largest number of samples per input a sequential audit may draw",
    "first_samples": "samples per input of a sequential audit's first stage",
    "chunk_samples": "samples drawn per chunk (bounds memory)",
    "pilot_samples": "samples per input of a search's pilot stage",
    "search_samples": "samples per input used to choose the events",
    "certify_samples": "samples per input used to certify the bound",
    "search_fraction": "fraction of the samples used to choose the events",
    "confidence": "probability in [0.5, 1) that a stated bound holds (its failure probability is 1 − confidence)",
    "failure_probability": "probability in (0, 1) that a stated bound fails (1 − confidence)",
    "significance_level": "probability in (0, 1) of rejecting a true null hypothesis",
    "power": "probability that the planned audit certifies (statistical power)",
    "trials": "number of Bernoulli trials",
    "successes": "number of successes among the trials",
    "epsilon_lower_bound": "certified lower bound on ε",
    "delta_lower_bound": "certified lower bound on δ",
    "claimed_delta": "the δ the claimed profile gives at this ε",
    "true_epsilon": "the mechanism's true ε (when known, for planning)",
    "violation": "True: the audit certified that the claim is violated",
    "most_violated": "the audited point with the largest violation",
    "direction": "which way the privacy loss is measured, 'forward' (x vs x′) or 'backward'",
    "kind": "the kind of a report or stream, as a short string",
    "mode": "how a computation runs or ran, as a short string (an audit's 'fixed' or 'sequential')",
    "stages": "number of stages a sequential audit ran",
    "bounds": "certified bounds",
    "estimate": "a point estimate (not a bound)",
    "conditional": "True: also certify the conditional ratio bound",
    "ratio_lower": "certified lower bound on the probability ratio",
    "p_hat": "observed frequency of the event on x",
    "p_lower": "a lower bound on the event's probability P[M(x) ∈ S] (holding with the audit's confidence)",
    "p_prime_upper": "an upper bound on the event's probability P[M(x′) ∈ S]",
    "successes_prime": "number of successes on the side of x′ (the other count of a two-sample test)",
    "p_prime_hat": "observed frequency of the event on x′",
    "p_interval": "confidence interval of the event's probability on x",
    "p_prime_interval": "confidence interval of the event's probability on x′",
    "pmf": "the probability mass function of the output on x (a sequence summing to 1)",
    "pmf_prime": "the probability mass function of the output on x′",
    "pairs": "neighbouring input pairs (InputPair values), or a JSONL file of them",
    "pair": "one neighbouring input pair",
    "pilot_bounds": "the bounds of the pilot stage",
    "certified": "the certified result",
    "certify_top": "how many searched pairs are certified",
    "report": "an audit or claims report",
    "families": "which event families to search ('auto' or family names)",
    "family": "an event or model family",
    "model": "the parametric model family an audit fits",
    "parameter": "the fitted model parameter",
    "parameter_bound": "a certified bound on the model parameter",
    "statistic": "a function output → scalar the events threshold",
    "low": "lower threshold of an output event",
    "high": "upper threshold of an output event",
    "stream": "an input stream (the interactive mechanism's inputs on x)",
    "stream_prime": "the input stream on x′",
    "run": "a function running the interactive mechanism on a stream",
    "runs": "number of independent runs",
    "length": "length of a query vector",
    "elements": "a hypothesis strategy drawing the records",
    "min_size": "smallest number of records a strategy draws",
    "max_size": "largest number of records a strategy draws",
    "min_value": "smallest value a strategy draws",
    "max_value": "largest value a strategy draws",
    "types": "which types a strategy draws",
    "label": "a label shown in messages or progress",
    "upper_bound": "a claimed upper bound to check",
    "threads": "whether to use threads, 'auto', 'on' or 'off'",
    "extra_candidates": "extra candidate events fixed before the search",
    "targets": "what an event search maximises: ('delta', δ) for ε at δ, ('epsilon', ε) for δ at ε",
    "normal_quantile": "a standard normal quantile z (of a planned per-bound level)",
    "first": "which side of the pair an event is tested from: 0 tests x against x′, 1 the reverse",
    "point": "index of the audited point (of a curve) an event is chosen for",
    "score": "a candidate event's predicted bound (from the search split)",
    "search_counts": "an event's counts of outputs of each side on the search split",
    "centre": "the standardising centre of a score's features",
    "weights": "the weights of a linear score",
    "bias": "the intercept of a linear score",
    "flags": "(column, value) pairs whose indicators are features of a score",
    "masked": "the columns whose flagged values are masked out of a feature",
    "masked_centre": "the standardising centre of the masked features",
    "masked_scale": "the standardising scale of the masked features",
    "coder": "a function mapping outputs to integer keys",
    "keys": "integer keys of output values",
    "ranks": "the rank of each key in a likelihood-ratio order",
    "labels": "readable labels of values, in rank order",
    "table": "a lookup table of ranks indexed by key",
    "sequence": "a numpy SeedSequence the draws' generators are spawned from",
    "certify": "the outputs of the certification split, when drawn elsewhere (chunked)",
    "plan_certify": "True: plan the certification split's size from the search",
    "refuse": "True: raise instead of warning",
    "noise_scale": "scale of the noise an example mechanism adds",
    "explore": "number of exploration rounds",
    "correct": "True: the example mechanism is correctly private",
    "true_epsilon_fn": "a function giving an example mechanism's true ε",
    "exact_pmfs_fn": "a function giving an example mechanism's exact output pmfs",
    "draw": "the outputs drawn once, reused by several audits",
    "start": "index of the first sample used",
    # --- execution and runs --------------------------------------------------------------
    "seed": "seed of the run's random generator (an int ≥ 0, or None for fresh entropy)",
    "rng": "a numpy.random.Generator every random draw comes from",
    "n_jobs": "number of parallel worker processes (1: run in this process; -1: one per core)",
    "executor": "a concurrent.futures.Executor to run tasks on",
    "scheduler": "address of a dask scheduler to run tasks on",
    "progress": "True: show a progress bar; None: only on a terminal",
    "tasks": "the tasks to run",
    "function": "the function to call",
    "on_result": "callback called with each finished result",
    "seconds": "wall-clock time taken, in seconds",
    "cache_dir": "directory of cached results",
    "cache": "True: read and write the result store of finished runs",
    "jobs": "CLI: number of worker processes (the library's n_jobs; -1: one per core)",
    "no_cache": "CLI: neither read nor write the result store",
    # --- the command line ----------------------------------------------------------------
    "json": "CLI: print one JSON object",
    "debug": "CLI: print the full traceback of an internal error",
    "argv": "the command-line arguments (without the program name)",
    "commands": "the commands to configure",
    "papers": "which papers' claims to check",
    "out": "CLI: output directory",
}

#: Words of the bandit algorithms, their planning, simulation, experiments and claims
#: (``dpverify.bandits``, ``dpverify.claims``, and their CLI commands).
BANDITS: dict[str, str] = {
    # filled by the bandits vocabulary part of issue 24
}

#: Every word of the public API and its meaning.
PARAMETERS: dict[str, str] = {**GENERAL, **BANDITS}

#: Spellings (of other libraries, or of older dpverify) of a word of GENERAL.
GENERAL_SYNONYMS: dict[str, str] = {
    "eps": "epsilon",
    "eps0": "local_epsilon",
    "epsilon_0": "local_epsilon",
    "epsilon0": "local_epsilon",
    "local_eps": "local_epsilon",
    "T": "horizon",
    "d": "dimension",
    "dim": "dimension",
    "n": "users",
    "n_users": "users",
    "q": "sampling_probability",
    "sampling_rate": "sampling_probability",
    "k": "count",
    "ks": "counts",
    "compositions": "count",
    "tail_probability": "failure_probability",
    "alpha": "order",
    "relation": "neighbouring",
    "neighboring": "neighbouring",
    "rel_tol": "rtol",
    "abs_tol": "atol",
    "xs": "outcomes",
    "significance": "significance_level",
    "n_certify": "certify_samples",
    "num_samples": "samples",
    "noise_std": "sigma",
    "std": "sigma",
}

#: Spellings of a word of BANDITS (or of a general word, in bandit code).
BANDIT_SYNONYMS: dict[str, str] = {
    # filled by the bandits vocabulary part of issue 24
}

#: Every known synonym and the vocabulary word to use instead.
SYNONYMS: dict[str, str] = {**GENERAL_SYNONYMS, **BANDIT_SYNONYMS}
