"""``dpverify audit scores``: a canary-score audit of scores on disk (issue 27 §4).

Read by :mod:`dpverify.cli.audit`, which routes ``dpverify audit scores ...`` here:
``scores`` is one more value of the command's positional argument, so every
existing ``dpverify audit MECHANISM`` and ``--sampler`` command line is unchanged.
Files: ``.npy`` (one-dimensional), or text — ``.csv`` or one number per line
(commas, spaces and newlines all separate numbers; ``#`` starts a comment).

The files are ``--in-scores`` and ``--out-scores``. ``--in`` and ``--out`` (the
issue's spellings) are still accepted, as hidden aliases: elsewhere in the CLI
``--out`` is an output directory, so help and the vocabulary give the word that
one meaning only.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from dpverify.cli import _choices
from dpverify.cli._core import EXIT_NOT_MET, EXIT_OK, finite_float
from dpverify.errors import DpverifyValueError

#: The positional value of ``dpverify audit`` that selects a score audit.
SCORES = "scores"
_SCORE_OPTIONS = ("in_scores", "out_scores", "design", "method", "thresholds")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``dpverify audit scores`` (a group of the ``audit`` command)."""
    group = parser.add_argument_group(
        "canary-score audits (dpverify audit scores --in-scores FILE --out-scores FILE "
        "--design DESIGN)")
    group.add_argument("--in-scores", dest="in_scores", metavar="FILE",
                       help="scores of the canaries included in training (.npy, .csv, or one "
                            "number per line); higher = more likely included")
    group.add_argument("--out-scores", dest="out_scores", metavar="FILE",
                       help="scores of the canaries held out of training (a file, not an output "
                            "directory)")
    # the short spellings, accepted but hidden: "--out" is an output directory elsewhere
    group.add_argument("--in", dest="in_scores", metavar="FILE", help=argparse.SUPPRESS)
    group.add_argument("--out", dest="out_scores", metavar="FILE", help=argparse.SUPPRESS)
    group.add_argument("--design", choices=("one-run", "independent-runs"),
                       help="how the scores were produced: one run with canaries each included "
                            "with probability 1/2, or one independent run per score (required)")
    group.add_argument("--method", default="auto",
                       choices=_choices.SCORE_METHODS,
                       help="the bound (auto: the design's certified default, one-run-fdp for "
                            "one run at delta > 0; gdp-model is model-based)")
    group.add_argument("--thresholds", default="auto", type=_thresholds,
                       help="auto (independent runs: band up to 5000 scores a side, else "
                            "bonferroni; one run: split for --method one-run when canaries x "
                            "delta >= 0.1, else bonferroni), band (independent runs: every "
                            "threshold, from an exact simultaneous band), bonferroni (a fixed "
                            "grid, one Bonferroni split), split (half the scores choose, the "
                            "other half certify), a number, or numbers separated by commas "
                            "(thresholds stated in advance, Bonferroni over them; one run: the "
                            "rule 'in when score >= t, out below')")


def _thresholds(text: str) -> Any:
    if text in ("auto", "band", "bonferroni", "split"):
        return text
    try:
        values = [finite_float(part) for part in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r} is not auto, band, bonferroni, split, a "
                                         "number or numbers separated by commas") from None
    return values[0] if len(values) == 1 else values


def read_scores(path: str, option: str) -> Any:
    """A one-dimensional float array from ``.npy`` or a text file; errors name ``option``."""
    import numpy as np  # deferred: keeps CLI start-up light

    try:
        if path.endswith(".npy"):
            array = np.load(path, allow_pickle=False)
        else:
            with open(path, encoding="utf-8") as handle:
                text = re.sub(r"#[^\n]*", "", handle.read())
            tokens = [token for token in re.split(r"[,\s]+", text) if token]
            array = np.array([float(token) for token in tokens])
    except OSError as error:
        raise DpverifyValueError(f"{option} {path!r}: cannot read it ({error.strerror})") from None
    except ValueError as error:
        raise DpverifyValueError(f"{option} {path!r} must hold numbers ({error})") from None
    if array.ndim != 1 or array.size == 0 or array.dtype.kind not in "iuf":
        raise DpverifyValueError(f"{option} {path!r} must hold a non-empty list of numbers "
                                 f"(got shape {array.shape}, dtype {array.dtype})")
    if not np.isfinite(array).all():
        raise DpverifyValueError(f"{option} {path!r} must hold finite numbers (found NaN or inf)")
    return array.astype(float)


def refuse_score_options(args: argparse.Namespace) -> None:
    """Score options are for ``dpverify audit scores`` only."""
    given = [name for name in _SCORE_OPTIONS if getattr(args, name) not in (None, "auto")]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        raise DpverifyValueError(f"{options}: only for 'dpverify audit scores'")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The handler of ``dpverify audit scores``."""
    from dpverify.auditing.scores.audit import audit_scores  # deferred: keeps CLI start-up light

    if args.sampler or args.pairs or args.x is not None or args.x_prime is not None or \
            args.model is not None:
        raise DpverifyValueError("'dpverify audit scores' reads --in-scores/--out-scores files; "
                                 "--sampler, --x, --x-prime, --pairs and --model do not apply")
    if args.in_scores is None or args.out_scores is None:
        raise DpverifyValueError("dpverify audit scores needs --in-scores FILE and --out-scores FILE")
    if args.design is None:
        raise DpverifyValueError("--design is required: one-run or independent-runs (it decides "
                                 "which bounds are valid)")
    report = audit_scores(read_scores(args.in_scores, "--in-scores"),
                          read_scores(args.out_scores, "--out-scores"),
                          design=args.design, epsilon=args.epsilon,
                          delta=0.0 if args.delta is None else args.delta, method=args.method,
                          thresholds=args.thresholds, confidence=args.confidence, seed=args.seed)
    result = {"mechanism": "scores", "in_file": args.in_scores, "out_file": args.out_scores,
              **report.to_dict()}
    status = EXIT_NOT_MET if report.violation else EXIT_OK
    return {**result, "_text": f"scores: {args.in_scores} (in), {args.out_scores} (out)\n{report}",
            "_status": status}
