"""``dpverify.bandits`` re-exports its names lazily (PEP 562): importing the package is cheap."""

from __future__ import annotations

import subprocess
import sys

import pytest

import dpverify.bandits as bandits


@pytest.mark.slow
def test_importing_the_package_loads_no_algorithm_environment_or_experiment() -> None:
    """What ``dpverify plan --help`` needs (the registry's names) loads no scipy, no environment,
    no algorithm family and no experiment; the first use of a name imports its module."""
    code = (
        "import sys, dpverify.bandits, dpverify.bandits.registry as r; "
        "heavy = {'scipy', 'dpverify.bandits.environments', 'dpverify.bandits.experiments', "
        "'dpverify.bandits.mab', 'dpverify.bandits.linear', 'dpverify.bandits.contextual', "
        "'dpverify.bandits.simulate'}; "
        "assert not heavy & set(sys.modules), sorted(heavy & set(sys.modules)); "
        "assert len(r.ALL_ALGORITHM_NAMES) == 24; "
        "from dpverify.bandits import BernoulliBandit; "
        "assert 'dpverify.bandits.environments' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_public_name_and_submodule_still_resolves() -> None:
    from dpverify.bandits.environments import BernoulliBandit
    from dpverify.bandits.simulate import simulate

    assert all(getattr(bandits, name) is not None for name in bandits.__all__)
    assert set(bandits.__all__) <= set(dir(bandits))
    assert bandits.BernoulliBandit is BernoulliBandit
    assert bandits.simulate.simulate is simulate  # the module, as before
    with pytest.raises(AttributeError, match="no_such_name"):
        bandits.no_such_name  # noqa: B018
