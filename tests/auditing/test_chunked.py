"""Chunked certification: the merged counts equal a direct count over the same chunk streams."""

from __future__ import annotations

import numpy as np

from dpverify.auditing._chunked import chunked_certifier


def _gaussian(data, size, rng):
    return data + rng.normal(size=size)


def _identity(values):
    return values


def test_merged_counts_equal_the_direct_count() -> None:
    root = np.random.SeedSequence(11)
    cuts = np.array([-1.0, 0.0, 0.5, 2.0])
    groups = {7: (_identity, cuts)}
    certify = chunked_certifier(_gaussian, 0.0, 1.0, root, chunk_samples=1000)
    (first, second), widths = certify(3500, None, groups)
    assert widths == [1, 1]
    for side, (data, totals) in enumerate(((0.0, first), (1.0, second))):
        values = np.concatenate([
            _gaussian(data, size, np.random.default_rng(np.random.SeedSequence(
                11, spawn_key=(2 + side, chunk))))
            for chunk, size in enumerate((1000, 1000, 1000, 500))])
        assert totals[7].tolist() == [int(np.count_nonzero(values <= c)) for c in cuts]
    (again, _), _ = chunked_certifier(_gaussian, 0.0, 1.0, root, chunk_samples=1000,
                                      n_jobs=2)(3500, None, groups)
    assert again[7].tolist() == first[7].tolist()
