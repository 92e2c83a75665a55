"""The names the ``dpverify`` command offers as choices, without importing the library.

``dpverify <command> --help`` must start in well under a second, so building a command's
options may not import numpy, scipy or the modules that define these names (importing
``dpverify.accountants.calibrate`` alone loads scipy.stats). Each tuple here mirrors a
library constant, named in its comment; ``tests/cli/test_cli_choices.py`` checks every one
against its source, so a name added to the library and not here fails a test instead of
silently missing from the command line. Standard library only.
"""

from __future__ import annotations

__all__ = [
    "GAUSSIAN_METHODS", "LAPLACE_METHODS", "SHUFFLE_BOUNDS", "EVENT_FAMILIES", "AUDIT_EXAMPLES",
    "MODEL_FAMILIES", "MAB_ALGORITHMS", "LINEAR_ALGORITHMS", "CONTEXTUAL_ALGORITHMS",
    "ALGORITHM_FAMILIES", "NON_PRIVATE_ALGORITHMS", "REWARD_FAMILIES", "LINEAR_INSTANCES",
    "EXPERIMENTS", "SCALES", "SCORE_METHODS",
]

#: dpverify.auditing.scores.audit.SCORE_METHODS
SCORE_METHODS = ("auto", "clopper-pearson", "conditional-ratio", "one-run", "one-run-fdp",
                 "gdp-model")
#: dpverify.accountants.calibrate.GAUSSIAN_METHODS
GAUSSIAN_METHODS = ("pld", "rdp", "analytic")
#: dpverify.accountants.calibrate.LAPLACE_METHODS
LAPLACE_METHODS = ("pld", "rdp", "pure")
#: the keys of dpverify.accountants.shuffle.amplification.SHUFFLE_BOUNDS (the built-in bounds)
SHUFFLE_BOUNDS = ("fmt2021", "fmt2021-tight", "erlingsson2019", "balle2019", "cheu2019",
                  "fmt2021-numerical", "variation-ratio")
#: dpverify.auditing.events.FAMILIES
EVENT_FAMILIES = ("threshold", "interval", "histogram", "classifier", "mixed", "sentinel",
                  "float")
#: the keys of dpverify.auditing.examples.CATALOGUE
AUDIT_EXAMPLES = (
    "laplace", "gaussian", "randomized_response", "noisy_max_exponential", "shuffled_binary_rr",
    "polya_difference", "mldp", "noisy_max_with_value", "laplace_half_scale",
    "gaussian_half_sigma", "noisy_max_value", "svt_no_query_noise", "svt_no_cutoff",
    "histogram_wrong_sensitivity", "rr_wrong_p", "mldp_budget_over_d", "polya_inverted_scale",
    "noisy_max_value_low_noise", "shuffle_batch_miscalibrated", "gaussian_classical_large_epsilon",
    "laplace_naive_float")
#: dpverify.auditing.model.MODEL_FAMILIES
MODEL_FAMILIES = ("gaussian", "laplace", "randomized_response", "discrete_laplace",
                  "discrete_gaussian", "binomial")
#: dpverify.bandits.mab.ALGORITHM_NAMES
MAB_ALGORITHMS = ("se", "ae", "sdp-ae", "vb-sdp-ae", "dist-dp-se", "dist-rdp-se", "dist-cdp-se",
                  "shuffle-dp-se", "cdp-se", "ldp-se", "dp-se")
#: dpverify.bandits.linear.LINEAR_ALGORITHM_NAMES
LINEAR_ALGORITHMS = ("hanna-central", "hanna-local", "hanna-shuffled", "hanna-nonprivate",
                     "dpdpe-central", "dpdpe-local", "dpdpe-shuffle", "dpe", "dpe-fixedu")
#: dpverify.bandits.contextual.CONTEXTUAL_ALGORITHMS
CONTEXTUAL_ALGORITHMS = ("sblb", "sblb-fixed-batch", "linucb", "ldp-linucb")
#: dpverify.bandits.registry.ALGORITHM_FAMILIES (algorithm name -> family)
ALGORITHM_FAMILIES = {**dict.fromkeys(MAB_ALGORITHMS, "multi-armed"),
                      **dict.fromkeys(LINEAR_ALGORITHMS, "linear"),
                      **dict.fromkeys(CONTEXTUAL_ALGORITHMS, "contextual")}
#: dpverify.bandits.registry.NON_PRIVATE_ALGORITHMS
NON_PRIVATE_ALGORITHMS = frozenset({"se", "ae", "hanna-nonprivate", "dpe", "dpe-fixedu", "linucb"})
#: dpverify.bandits.environments.REWARD_FAMILIES
REWARD_FAMILIES = ("clipped-gaussian", "bernoulli")
#: dpverify.bandits.linear.environments.LINEAR_INSTANCES
LINEAR_INSTANCES = ("sphere", "dpdpe")
#: the keys of dpverify.bandits.experiments.EXPERIMENTS
EXPERIMENTS = ("chowdhury2023-fig1", "chowdhury2023-fig2", "chowdhury2023-fig3",
               "chowdhury2023-fig4", "tenenbaum2021-scaling", "hanna2022-fig2", "hanna2022-fig3b",
               "dpdpe-fig2a", "dpdpe-fig2b", "dpdpe-fig2c", "garcelon2022-scaling",
               "garcelon2022-privacy")
#: the keys of dpverify.bandits.experiments.SCALES
SCALES = ("full", "quick")
