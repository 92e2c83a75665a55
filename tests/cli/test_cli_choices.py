"""The CLI's light copies of the library's name lists (``dpverify.cli._choices``) match them.

``dpverify <command> --help`` reads these copies so as not to import numpy or scipy; this
test is what keeps each copy equal to the constant it mirrors (``tests/cli/test_cli.py``
checks that every command's ``--help`` stays free of numpy).
"""

from __future__ import annotations

from dpverify.cli import _choices


def _sources() -> list[tuple[str, object, object]]:
    from dpverify.accountants.calibrate import GAUSSIAN_METHODS, LAPLACE_METHODS
    from dpverify.accountants.shuffle.amplification import SHUFFLE_BOUNDS
    from dpverify.auditing.events import FAMILIES
    from dpverify.auditing.examples import CATALOGUE
    from dpverify.auditing.model import MODEL_FAMILIES
    from dpverify.auditing.scores.audit import SCORE_METHODS
    from dpverify.bandits.contextual import CONTEXTUAL_ALGORITHMS
    from dpverify.bandits.environments import REWARD_FAMILIES
    from dpverify.bandits.experiments import EXPERIMENTS, SCALES
    from dpverify.bandits.linear import LINEAR_ALGORITHM_NAMES
    from dpverify.bandits.linear.environments import LINEAR_INSTANCES
    from dpverify.bandits.mab import ALGORITHM_NAMES
    from dpverify.bandits.registry import ALGORITHM_FAMILIES, NON_PRIVATE_ALGORITHMS

    return [
        ("GAUSSIAN_METHODS", _choices.GAUSSIAN_METHODS, GAUSSIAN_METHODS),
        ("LAPLACE_METHODS", _choices.LAPLACE_METHODS, LAPLACE_METHODS),
        ("SHUFFLE_BOUNDS", _choices.SHUFFLE_BOUNDS, tuple(SHUFFLE_BOUNDS)),
        ("EVENT_FAMILIES", _choices.EVENT_FAMILIES, FAMILIES),
        ("AUDIT_EXAMPLES", _choices.AUDIT_EXAMPLES, tuple(CATALOGUE)),
        ("MODEL_FAMILIES", _choices.MODEL_FAMILIES, MODEL_FAMILIES),
        ("MAB_ALGORITHMS", _choices.MAB_ALGORITHMS, ALGORITHM_NAMES),
        ("LINEAR_ALGORITHMS", _choices.LINEAR_ALGORITHMS, LINEAR_ALGORITHM_NAMES),
        ("CONTEXTUAL_ALGORITHMS", _choices.CONTEXTUAL_ALGORITHMS, CONTEXTUAL_ALGORITHMS),
        ("ALGORITHM_FAMILIES", _choices.ALGORITHM_FAMILIES, ALGORITHM_FAMILIES),
        ("NON_PRIVATE_ALGORITHMS", _choices.NON_PRIVATE_ALGORITHMS, NON_PRIVATE_ALGORITHMS),
        ("REWARD_FAMILIES", _choices.REWARD_FAMILIES, REWARD_FAMILIES),
        ("LINEAR_INSTANCES", _choices.LINEAR_INSTANCES, LINEAR_INSTANCES),
        ("EXPERIMENTS", _choices.EXPERIMENTS, tuple(EXPERIMENTS)),
        ("SCALES", _choices.SCALES, tuple(SCALES)),
        ("SCORE_METHODS", _choices.SCORE_METHODS, SCORE_METHODS),
    ]


def test_every_copy_equals_the_library_constant() -> None:
    sources = _sources()
    assert {name for name, _, _ in sources} == set(_choices.__all__)
    for name, copy, original in sources:
        assert copy == original, f"dpverify.cli._choices.{name} differs from the library's"

