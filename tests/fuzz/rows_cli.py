"""Fuzz rows for the ``dpverify`` command line: one cheap valid command line per (sub-)command.

Every value-taking option of the command a row runs is fuzzed (found from the
parser, so a new option is covered without a new row); a new command needs a
row here (``test_every_cli_command_has_a_fuzz_row`` says which).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fuzz._harness import CliRow

# input files of the commands that read one (absolute paths: the worker runs elsewhere)
_FILES = Path(tempfile.mkdtemp(prefix="dpverify-fuzz-inputs-"))
_COMPOSE = _FILES / "compose.json"
_COMPOSE.write_text(json.dumps({"event": {"type": "SelfComposedEvent", "count": 10, "event": {
    "type": "MechanismEvent", "mechanism": {"type": "Gaussian", "sigma": 2}}}}), encoding="utf-8")
_SWEEP = _FILES / "sweep.toml"
_SWEEP.write_text('experiment = "dpdpe-fig2c"\npanels = ["c"]\nruns = 1\n', encoding="utf-8")

CLI_ROWS = {
    "account gaussian": CliRow(("account", "gaussian", "--sigma", "1.0", "--delta", "1e-5",
                                "--count", "10", "--method", "rdp", "--json")),
    "account laplace": CliRow(("account", "laplace", "--scale", "1.0", "--delta", "1e-6",
                               "--count", "10", "--method", "rdp", "--json")),
    "account calibrate": CliRow(("account", "calibrate", "--epsilon", "1.0", "--delta", "1e-5",
                                 "--count", "10", "--method", "analytic", "--json")),
    "shuffle": CliRow(("shuffle", "--local-epsilon", "1.0", "--users", "1000", "--delta", "1e-6",
                       "--json")),
    "audit": CliRow(("audit", "laplace_half_scale", "--samples", "1000", "--seed", "1",
                     "--json"),
                    avoid={"--samples": ("1e8", "1e9")}),  # legitimate audits of minutes
    "simulate": CliRow(("simulate", "--algorithm", "se", "--horizon", "100", "--runs", "1",
                        "--seed", "0", "--json")),
    "reproduce": CliRow(("reproduce", "dpdpe-fig2c", "--panels", "c", "--runs", "1",
                         "--preset", "quick", "--json"),
                        skip={"--out": "a directory path: any string is valid"},
                        cases={"--runs": ("1_000",)}),  # issue 28: minutes; now refused
    "account dp-sgd": CliRow(("account", "dp-sgd", "--epsilon", "1.0", "--delta", "1e-5",
                              "--sampling-probability", "0.01", "--steps", "100", "--method",
                              "rdp", "--json")),
    "account compose": CliRow(("account", "compose", str(_COMPOSE), "--delta", "1e-5",
                               "--method", "rdp", "--json")),
    "sweep": CliRow(("sweep", str(_SWEEP), "--no-cache", "--no-figures", "--json"),
                    skip={"--out": "a directory path: any string is valid",
                          "--cache-dir": "a directory path: any string is valid",
                          "--scheduler": "a Dask address; checked by the execution layer"}),
    "claims": CliRow(("claims", "hanna", "--preset", "quick", "--json"),
                     skip={"--out": "a directory path: any string is valid"}),
}


def _plan_row(name: str) -> CliRow:
    """``plan <bandit algorithm>`` at a small horizon, with the size options it has."""
    from dpverify.bandits import NON_PRIVATE_ALGORITHMS
    from fuzz._harness import cli_options

    options = cli_options(("plan", name))
    argv = ["plan", name, "--horizon", "1000"]
    if name not in NON_PRIVATE_ALGORITHMS:
        argv += ["--epsilon", "1.0"]
    for option, value in (("--n-arms", "3"), ("--dimension", "2")):
        if option in options:
            argv += [option, value]
    # issue 28: dpe-fixedu's calibration at d = 1000 ran minutes; now refused by its estimate
    cases = {"--dimension": ("1_000",)} if name == "dpe-fixedu" else {}
    return CliRow((*argv, "--json"), cases=cases)


def _bandit_plan_rows() -> dict[str, CliRow]:
    from dpverify.bandits import ALL_ALGORITHM_NAMES

    return {f"plan {name}": _plan_row(name) for name in ALL_ALGORITHM_NAMES}


CLI_ROWS.update(_bandit_plan_rows())
CLI_ROWS.update({
    "plan dp-sgd": CliRow(("plan", "dp-sgd", "--dataset-size", "1000", "--batch-size", "10",
                           "--steps", "100", "--epsilon", "1.0", "--delta", "1e-5",
                           "--method", "rdp", "--json")),
    "plan gaussian": CliRow(("plan", "gaussian", "--epsilon", "1.0", "--delta", "1e-5",
                             "--count", "10", "--json")),
    "plan laplace": CliRow(("plan", "laplace", "--epsilon", "1.0", "--count", "10",
                            "--json")),
    "plan shuffle": CliRow(("plan", "shuffle", "--epsilon", "1.0", "--delta", "1e-6",
                            "--users", "1000", "--json")),
    # issue 28's slow extremes, each on the base call it needs (the options are fuzzed above)
    "plan shuffle --local-epsilon": CliRow(
        ("plan", "shuffle", "--epsilon", "1.0", "--delta", "1e-6", "--local-epsilon", "1",
         "--json"), cases={"--epsilon": ("1e-300",)}, cases_only=True),
    "plan shuffle --local-epsilon k-rr": CliRow(
        ("plan", "shuffle", "--epsilon", "1.0", "--delta", "1e-6", "--local-epsilon", "1",
         "--randomizer", "k-rr", "--categories", "4", "--json"),
        cases={"--epsilon": ("1e-300",)}, cases_only=True),
    "plan shuffle binary-rr": CliRow(
        ("plan", "shuffle", "--epsilon", "1e-300", "--delta", "1e-6", "--users", "1000",
         "--randomizer", "binary-rr", "--json"), cases={"--users": ("10000000",)},
        cases_only=True),
    "plan secure-aggregation": CliRow(("plan", "secure-aggregation", "--epsilon", "1.0",
                                       "--delta", "1e-6", "--users", "100", "--json")),
})
