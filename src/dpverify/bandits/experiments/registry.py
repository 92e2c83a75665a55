"""The registry :data:`EXPERIMENTS`: named, frozen configurations of the papers' figures.

One module per paper family defines its experiments:

* :mod:`~dpverify.bandits.experiments.chowdhury` — ``chowdhury2023-fig1``;
* :mod:`~dpverify.bandits.experiments.tenenbaum` — ``tenenbaum2021-scaling``
  (Tenenbaum et al. 2021 has no experiments: ours);
* :mod:`~dpverify.bandits.experiments.hanna` — ``hanna2022-fig2``, ``hanna2022-fig3b``;
* :mod:`~dpverify.bandits.experiments.dpdpe` — ``dpdpe-fig2a|fig2b|fig2c``;
* :mod:`~dpverify.bandits.experiments.garcelon` — ``garcelon2022-scaling`` and
  ``garcelon2022-privacy`` (Garcelon et al. 2022 has no experiments: ours).
"""

from __future__ import annotations

from dpverify.bandits.experiments._spec import Experiment
from dpverify.bandits.experiments.chowdhury import CHOWDHURY_EXPERIMENTS
from dpverify.bandits.experiments.dpdpe import DPDPE_EXPERIMENTS
from dpverify.bandits.experiments.garcelon import GARCELON_EXPERIMENTS
from dpverify.bandits.experiments.hanna import HANNA_EXPERIMENTS
from dpverify.bandits.experiments.tenenbaum import TENENBAUM_EXPERIMENTS

__all__ = ["EXPERIMENTS"]

#: Named experiments.
EXPERIMENTS: dict[str, Experiment] = {
    **CHOWDHURY_EXPERIMENTS, **TENENBAUM_EXPERIMENTS, **HANNA_EXPERIMENTS, **DPDPE_EXPERIMENTS,
    **GARCELON_EXPERIMENTS}
