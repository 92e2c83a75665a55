"""The chowdhury public-code claims audit the release itself, not a deterministic function of it."""

import warnings

import numpy as np

from dpverify.claims import chowdhury
from dpverify.errors import AuditWarning


def test_dp_se_shared_draw_audit_raises_no_audit_warning() -> None:
    """The audited output varies with the rng (no "identical outputs" warning) and still fails.

    The old sampler returned round(arm 0 - arm 1), a deterministic function of the data (the
    shared Laplace draw cancels), so the engine's probe warned that no bound was valid.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error", AuditWarning)
        evidence = chowdhury._shared_draw("quick")
    assert evidence.verdict == chowdhury.FINDING  # a finding about the released code
    assert evidence.numbers["audit_epsilon_lower_bound"] > 3.0


def test_shared_draw_release_is_a_bijection_of_the_audited_record() -> None:
    release = chowdhury.shared_draw_release([3.0, 5.0], scale=1.0, size=5,
                                            rng=np.random.default_rng(0))
    difference, first = np.round(release[:, 0] - release[:, 1]), release[:, 0]
    # the sums differ by an integer, so arm 1 = arm 0 - difference (up to float rounding)
    assert np.allclose(np.column_stack([first, first - difference]), release, rtol=0, atol=1e-12)
