"""The MSLR-WEB10K loader on a small file in the data set's format (the real files are not here)."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.bandits.mslr import mslr_instance, read_mslr


def _write(path, rng, rows_per_cluster=200, features=4):
    centres = np.array([[0.0] * features, [10.0] * features, [-10.0] * features])
    labels = (0, 2, 4)
    lines = []
    for centre, label in zip(centres, labels):
        for _ in range(rows_per_cluster):
            values = centre + rng.normal(size=features)
            lines.append(f"{label} qid:7 " + " ".join(f"{i + 1}:{v:.5f}" for i, v in enumerate(values)))
    rng.shuffle(lines)
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def test_clusters_become_arms_with_their_label_distributions(tmp_path) -> None:
    file = tmp_path / "train.txt"
    _write(file, np.random.default_rng(1))
    env = mslr_instance(file, n_arms=3, features=4, seed=2)
    assert sorted(env.reward_means) == pytest.approx([0.0, 0.5, 1.0])
    assert env.n_arms == 3 and not env.binary


def test_reading_limits_and_bad_files(tmp_path) -> None:
    file = tmp_path / "train.txt"
    _write(file, np.random.default_rng(1), rows_per_cluster=10)
    labels, x = read_mslr(file, features=4, max_rows=7)
    assert labels.shape == (7,) and x.shape == (7, 4) and x.dtype == np.float32
    with pytest.raises(ValueError, match="path"):
        read_mslr(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_text("7 qid:1 1:0.5 2:1\n", encoding="ascii")
    with pytest.raises(ValueError, match="path"):
        read_mslr(bad, features=2)
    with pytest.raises(ValueError, match="n_arms"):
        mslr_instance(file, n_arms=1000, features=4)
