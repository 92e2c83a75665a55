"""The MSLR-WEB10K bandit instance of Chowdhury & Zhou 2023, built from a local copy of the data set.

Chowdhury & Zhou 2023, §7: the 1,200,192 query–url rows of MSLR-WEB10K (Qin
& Liu 2013) are clustered by K-means into K = 50 clusters; each cluster is an
arm whose rewards are its rows' relevance labels (0..4). The data set cannot
be downloaded here, so :func:`dpverify.bandits.environments.mslr_synthetic_instance`
(a labelled synthetic stand-in) stays the default; a user with the files
(``Fold1/train.txt`` etc., format ``label qid:N 1:v … 136:v``) builds the real
instance with :func:`mslr_instance`.

Choices the paper leaves open, made explicit
as parameters: features standardised (z-scores) before K-means (default);
K-means++ initialisation with a seed; an arm's reward per pull is a label drawn
from its cluster's empirical label distribution, divided by 4 (rewards in
[0, 1], as the protocol needs; :class:`~dpverify.bandits.environments.CategoricalBandit`).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.cluster.vq import kmeans2

from dpverify._deprecation import renamed_parameters
from dpverify._validation import check_positive_int, value_error
from dpverify.bandits.environments import LABEL_REWARDS, CategoricalBandit

__all__ = ["read_mslr", "mslr_instance", "MSLR_FEATURES"]

#: Features per row of MSLR-WEB10K.
MSLR_FEATURES = 136
_INDEX = re.compile(r"(?<=\s)(?:qid|\d+):")
_CHUNK = 50_000


def _parse(lines: list[str], features: int) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    text = _INDEX.sub("", " " + "\n ".join(line.strip() for line in lines))
    table = np.array(text.split(), dtype=np.float64)
    width = features + 2  # label, qid, features
    if table.size % width:
        raise value_error("path", "<file>", f"rows of 'label qid:N 1:v … {features}:v' ({width} fields)")
    table = table.reshape(-1, width)
    labels = table[:, 0]
    if not np.all(np.isin(labels, np.arange(len(LABEL_REWARDS)))):
        raise value_error("path", "<file>", "relevance labels in {0, 1, 2, 3, 4}")
    return labels.astype(np.int64), table[:, 2:].astype(np.float32)


def read_mslr(path: str | Path, *, max_rows: int | None = None, features: int = MSLR_FEATURES
              ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Labels and features of an MSLR-WEB10K file (``label qid:N 1:v … 136:v`` per line).

    Read in chunks of 50 000 lines (float32 features: 1.2M rows take ~650 MB);
    ``max_rows`` keeps the first rows only. Every row must carry every feature
    (the data set is dense).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("2 qid:1 1:0.5 2:3\\n0 qid:1 1:0 2:1\\n")
    >>> labels, x = read_mslr(f.name, features=2)
    >>> labels.tolist(), x.tolist()
    ([2, 0], [[0.5, 3.0], [0.0, 1.0]])
    >>> os.unlink(f.name)
    """
    source = Path(path)
    if not source.is_file():
        raise value_error("path", str(path), "an existing MSLR-WEB10K file")
    limit = None if max_rows is None else check_positive_int(max_rows, "max_rows")
    features = check_positive_int(features, "features")
    labels, rows, chunk = [], [], []
    read = 0
    with source.open(encoding="ascii") as handle:
        for line in handle:
            if not line.strip():
                continue
            chunk.append(line)
            read += 1
            if len(chunk) == _CHUNK or read == limit:
                part = _parse(chunk, features)
                labels.append(part[0])
                rows.append(part[1])
                chunk = []
            if read == limit:
                break
    if chunk:
        part = _parse(chunk, features)
        labels.append(part[0])
        rows.append(part[1])
    if not labels:
        raise value_error("path", str(path), "a file with at least one row")
    return np.concatenate(labels), np.concatenate(rows)


@renamed_parameters(k="n_arms")
def mslr_instance(path: str | Path, *, n_arms: int = 50, seed: int = 0,
                  max_rows: int | None = None, standardize: bool = True,
                  features: int = MSLR_FEATURES) -> CategoricalBandit:
    """The MSLR-WEB10K instance of Chowdhury & Zhou 2023: K-means clusters of the rows are the arms.

    Parameters
    ----------
    path
        A local MSLR-WEB10K file (e.g. ``Fold1/train.txt``).
    n_arms
        The number of arms K (clusters); Chowdhury & Zhou use 50.
    seed
        Seed of the K-means++ initialisation (the paper's is unknown).
    max_rows, features
        As in :func:`read_mslr`.
    standardize
        z-score the features before clustering (the paper's scaling is unknown).

    Returns
    -------
    CategoricalBandit
        Arm a draws a label from cluster a's empirical label distribution; reward label/4.
        Empty clusters (possible with K-means) are dropped, so its ``n_arms`` may be smaller.
    """
    k = check_positive_int(n_arms, "n_arms")
    labels, x = read_mslr(path, max_rows=max_rows, features=features)
    if labels.size < k:
        raise value_error("n_arms", k, f"at most the number of rows read ({labels.size})")
    data = x.astype(np.float64)
    if standardize:
        spread = data.std(axis=0)
        data = (data - data.mean(axis=0)) / np.where(spread > 0, spread, 1.0)
    _, assignment = kmeans2(data, k, minit="++", seed=np.random.default_rng(seed))
    counts = np.zeros((k, len(LABEL_REWARDS)))
    np.add.at(counts, (assignment, labels), 1.0)
    counts = counts[counts.sum(axis=1) > 0]
    return CategoricalBandit(tuple(tuple((row / row.sum()).tolist()) for row in counts))

