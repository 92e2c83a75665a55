"""Chunked certification: the merged counts equal a direct count over the same chunk streams."""

from __future__ import annotations

import numpy as np
import pytest

from dpverify.auditing._pipeline.chunked import chunked_certifier


def _gaussian(data, size, rng):
    return data + rng.normal(size=size)


def _identity(values):
    return values


@pytest.mark.slow
def test_merged_counts_equal_the_direct_count() -> None:
    root = np.random.SeedSequence(11)
    cuts = np.array([-1.0, 0.0, 0.5, 2.0])
    groups = {7: (_identity, cuts)}
    certify = chunked_certifier(_gaussian, 0.0, 1.0, root, chunk_samples=1000)
    (first, second), widths, prefix = certify(3500, None, groups)
    assert prefix is None
    assert widths == [1, 1]
    for side, (data, totals) in enumerate(((0.0, first), (1.0, second))):
        values = np.concatenate([
            _gaussian(data, size, np.random.default_rng(np.random.SeedSequence(
                11, spawn_key=(2 + side, chunk))))
            for chunk, size in enumerate((1000, 1000, 1000, 500))])
        assert totals[7].tolist() == [int(np.count_nonzero(values <= c)) for c in cuts]
    (again, _), _, _ = chunked_certifier(_gaussian, 0.0, 1.0, root, chunk_samples=1000,
                                      n_jobs=2)(3500, None, groups)
    assert again[7].tolist() == first[7].tolist()


# ------------------------------------------------ the chunked path handles every output kind

import pytest  # noqa: E402

from dpverify.auditing import audit  # noqa: E402
from dpverify.auditing._pipeline.outputs import CategoryCodes  # noqa: E402
from dpverify.errors import AuditWarning  # noqa: E402


def _rr_bit(data, size, rng, epsilon):
    keep = rng.random(size) < np.exp(epsilon) / (1 + np.exp(epsilon))
    return np.where(keep, data, 1 - data)


def _tuple_record(scale):
    def sampler(data, size, rng):  # index (a fair coin: no leak) and a noisy value
        return rng.integers(0, 2, size), data + rng.laplace(0.0, scale, size)
    return sampler


def _string_categories(epsilon):
    def sampler(data, size, rng):
        return np.where(_rr_bit(data, size, rng, epsilon) == 1, "yes", "no")
    return sampler


def _dict_record(epsilon, scale):
    def sampler(data, size, rng):
        arm = np.where(_rr_bit(data, size, rng, epsilon) == 1, "right", "left")
        return {"arm": arm, "value": data + rng.laplace(0.0, scale, size)}
    return sampler


def _structured_record(scale):
    def sampler(data, size, rng):
        out = np.zeros(size, dtype=[("index", np.int64), ("value", np.float64)])
        out["index"] = rng.integers(0, 3, size)
        out["value"] = data + rng.laplace(0.0, scale, size)
        return out
    return sampler


def _bool_output(epsilon):
    def sampler(data, size, rng):
        return _rr_bit(data, size, rng, epsilon).astype(bool)
    return sampler


# (name, sampler, claimed epsilon, violates): the leaky ones break their claim by 2x or more,
# the correct ones meet it exactly (their true epsilon is the claim)
KINDS = [
    ("tuple, leaks through the value", _tuple_record(0.25), 1.0, True),
    ("tuple, correct", _tuple_record(1.0), 1.0, False),
    ("strings, leaky", _string_categories(3.0), 1.0, True),
    ("strings, correct", _string_categories(1.0), 1.0, False),
    ("dict, leaks through the value", _dict_record(0.5, 0.2), 2.0, True),
    ("dict, correct", _dict_record(0.5, 1.0), 1.5, False),
    ("structured array, leaky", _structured_record(0.25), 1.0, True),
    ("structured array, correct", _structured_record(1.0), 1.0, False),
    ("bools, leaky", _bool_output(3.0), 1.0, True),
    ("bools, correct", _bool_output(1.0), 1.0, False),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, sampler, epsilon, violates", KINDS, ids=[k[0] for k in KINDS])
def test_chunked_and_one_process_audits_agree_on_every_output_kind(name, sampler, epsilon,
                                                                    violates) -> None:
    """Same verdict through the chunks (records, strings, bools) as in one process.

    The two paths draw different certification samples (the chunks have their own seeds), so
    the bounds differ a little; the verdicts agree. Each audit errs with probability <= 0.05.
    """
    reports = [audit(sampler, 0, 1, epsilon=epsilon, samples=150_000, seed=5, **extra)
               for extra in ({}, {"chunk_samples": 40_000})]
    assert [r.violation for r in reports] == [violates, violates], \
        [r.epsilon_lower_bound for r in reports]
    assert reports[0].kind == reports[1].kind


def test_chunked_string_categories_code_like_the_search() -> None:
    """A chunk coding categories in its own process gets the codes the search assigned."""
    root = np.random.SeedSequence(3)
    codes = CategoryCodes()
    codes.encode(np.array(["no", "yes"]))
    codes.freeze()
    groups = {1: (_identity, np.array([0.0, 1.0]))}
    certify = chunked_certifier(_string_categories(1.0), 0, 1, root, chunk_samples=500,
                                codes=codes)
    (first, second), _, _ = certify(1000, None, groups)
    (again, _), _, _ = chunked_certifier(_string_categories(1.0), 0, 1, root, chunk_samples=500,
                                      codes=codes, n_jobs=2)(1000, None, groups)
    assert first[1].tolist() == again[1].tolist()
    assert first[1][1] == 1000  # every output is coded 0 or 1: none is "unseen"


def test_frozen_codes_give_unseen_categories_one_shared_code() -> None:
    codes = CategoryCodes()
    assert codes.encode(np.array(["b", "a", "b"])).tolist() == [1, 0, 1]  # sorted per call
    codes.freeze()
    assert codes.encode(np.array(["c", "a", "d"])).tolist() == [2, 0, 2]
    import pickle

    copy = pickle.loads(pickle.dumps(codes))
    assert copy.encode(np.array(["e", "b"])).tolist() == [2, 1]


_OWN_STREAM = np.random.default_rng(0)


def test_chunks_of_a_sampler_ignoring_its_rng_run_in_this_process() -> None:
    """The probe's one-thread decision holds for the chunks: no pool, in turn, here.

    A sampler drawing from its own generator would, in forked workers, draw identical chunks
    (each worker inherits a copy of the same state): counts of repeated outputs are not
    binomial and the bounds would be overconfident.
    """
    sizes = []

    def ignores_rng(data, size, rng):
        sizes.append(size)
        return data + _OWN_STREAM.laplace(0.0, 1.0, size)

    with pytest.warns(AuditWarning, match="ignores its rng"):
        audit(ignores_rng, 0.0, 1.0, epsilon=1.0, samples=60_000, seed=2, chunk_samples=10_000,
              n_jobs=2)
    # 4 chunks per side (the one holding the Poisson prefix's end cut in two), all drawn in
    # this process: every certification output was drawn by this closure
    chunks = [size for size in sizes if size not in (1024, 20_000 - 1024)]
    assert sum(chunks) >= 2 * 40_000 and sizes.count(10_000) >= 6


def test_chunked_certifier_not_concurrent_runs_inline() -> None:
    calls = []

    def sampler(data, size, rng):
        calls.append(data)
        return data + rng.normal(size=size)

    groups = {1: (_identity, np.array([0.5]))}
    certify = chunked_certifier(sampler, 0.0, 1.0, np.random.SeedSequence(1), chunk_samples=100,
                                concurrent=False, n_jobs=2)
    certify(300, None, groups)
    assert calls == [0.0] * 3 + [1.0] * 3  # in this process (a pool could not append here)


def test_a_bad_placement_is_refused_even_when_the_chunks_run_here() -> None:
    with pytest.raises(TypeError, match="executor"):
        chunked_certifier(_gaussian, 0.0, 1.0, np.random.SeedSequence(1), chunk_samples=100,
                          concurrent=False, n_jobs=2, executor=object())
