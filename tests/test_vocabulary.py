"""Every public parameter name is a word of :mod:`dpverify.vocabulary`, with one meaning.

The walk: every public module of dpverify (no ``_`` in its dotted path) and each name
in its ``__all__``; for a function its signature, for a class its constructor and its
public methods (properties excluded; inherited ones from dpverify classes included;
an ``Enum``'s constructor is the enum machinery's and is skipped); signatures follow
``__wrapped__``, so a deprecation shim shows the new names. Then every option of
every ``dpverify`` sub-command (``--option-name`` -> ``option_name``; positional
arguments by their ``dest``; hidden options, the deprecated spellings, excluded).

A name fails if it is not in :data:`~dpverify.vocabulary.PARAMETERS` or if it is a
known synonym (:data:`~dpverify.vocabulary.SYNONYMS`). The walk is parametrized by
area (the public package that defines the callable, ``cli:<command>`` for the CLI)
so each part of the code base can be checked on its own.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import inspect
import pkgutil
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import dpverify
from dpverify import vocabulary
from dpverify.cli import build_parser

Finding = tuple[str, str]  # (where, parameter name)


# --- the library ---------------------------------------------------------------------------

def _public_modules() -> list[str]:
    names = ["dpverify"]
    for info in pkgutil.walk_packages(dpverify.__path__, "dpverify."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def _is_package(module: str) -> bool:
    return hasattr(importlib.import_module(module), "__path__")


def _area(module: str) -> str:
    """The public package a module belongs to: private parts cut, a module's own name dropped."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_"):
            parts = parts[:i]
            break
    name = ".".join(parts)
    return name if _is_package(name) else name.rsplit(".", 1)[0]


def _parameter_names(function: Callable[..., Any]) -> list[str]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    return [p.name for p in signature.parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _methods(cls: type) -> Iterator[tuple[str, Callable[..., Any]]]:
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("dpverify"):
            continue
        for name, attribute in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(attribute, (staticmethod, classmethod)):
                attribute = attribute.__func__
            if inspect.isfunction(attribute):
                yield name, attribute


def _callables(obj: Any, where: str) -> Iterator[tuple[str, Callable[..., Any]]]:
    if inspect.isclass(obj):
        if not issubclass(obj, enum.Enum):
            yield where, obj
        for name, method in _methods(obj):
            yield f"{where}.{name}", method
    elif callable(obj):
        yield where, obj


def _library_findings() -> dict[str, dict[Finding, None]]:
    """area -> {(where, name)} of every public parameter, each callable once."""
    found: dict[str, dict[Finding, None]] = defaultdict(dict)
    done: set[int] = set()
    for module_name in _public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            home = getattr(obj, "__module__", None)
            if obj is None or id(obj) in done or not (home or "").startswith("dpverify"):
                continue
            done.add(id(obj))
            where = f"{home}.{getattr(obj, '__qualname__', name)}"
            for place, function in _callables(obj, where):
                for parameter in _parameter_names(function):
                    found[_area(home)][(place, parameter)] = None
    return found


# --- the command line ----------------------------------------------------------------------

def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> Iterator[str]:
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(
                action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
            continue
        if not action.option_strings:
            yield action.dest
        for option in action.option_strings:
            negated = option.startswith("--no-") and "--" + option[5:] in action.option_strings
            if option.startswith("--") and not negated:  # --no-x of a BooleanOptionalAction --x
                yield option[2:].replace("-", "_")


def _cli_findings() -> dict[str, dict[Finding, None]]:
    """``cli:<command>`` (``cli:<command> <sub-command>`` for ``plan``) -> {(where, name)}."""
    found: dict[str, dict[Finding, None]] = defaultdict(dict)

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        area = "cli:" + " ".join(path[:2] if path[0] == "plan" else path[:1])
        for option in _options(parser):
            found[area][("dpverify " + " ".join(path), option)] = None
        for name, sub in _subparsers(parser).items():
            walk(sub, (*path, name))

    for command, parser in _subparsers(build_parser()).items():
        walk(parser, (command,))
    return found


FINDINGS = {**_library_findings(), **_cli_findings()}


def _problems(findings: dict[Finding, None]) -> list[str]:
    problems = []
    for where, name in findings:
        if name in vocabulary.SYNONYMS:
            problems.append(f"{where}: {name!r} is a synonym of {vocabulary.SYNONYMS[name]!r}")
        elif name not in vocabulary.PARAMETERS:
            problems.append(f"{where}: {name!r} is not in dpverify.vocabulary")
    return sorted(problems)


@pytest.mark.parametrize("area", sorted(FINDINGS))
def test_every_public_parameter_is_a_vocabulary_word(area: str) -> None:
    problems = _problems(FINDINGS[area])
    assert not problems, f"{len(problems)} names outside the vocabulary:\n" + "\n".join(problems)


def test_the_walk_covers_the_library_and_the_cli() -> None:
    names = {name for findings in FINDINGS.values() for _, name in findings}
    assert {"dpverify", "dpverify.accountants", "dpverify.auditing", "dpverify.mechanisms",
            "cli:account", "cli:audit"} <= set(FINDINGS)
    assert {"epsilon", "delta", "confidence", "neighbouring"} <= names


# --- the vocabulary itself -----------------------------------------------------------------

def test_no_word_is_both_a_word_and_a_synonym() -> None:
    assert not set(vocabulary.PARAMETERS) & set(vocabulary.SYNONYMS)


def test_every_synonym_points_to_a_word() -> None:
    stray = {old: new for old, new in vocabulary.SYNONYMS.items() if new not in vocabulary.PARAMETERS}
    assert not stray


def test_the_parts_do_not_overlap_and_merge_into_the_whole() -> None:
    assert not set(vocabulary.GENERAL) & set(vocabulary.BANDITS)
    assert vocabulary.PARAMETERS == {**vocabulary.GENERAL, **vocabulary.BANDITS}
    assert not set(vocabulary.GENERAL_SYNONYMS) & set(vocabulary.BANDIT_SYNONYMS)
    assert vocabulary.SYNONYMS == {**vocabulary.GENERAL_SYNONYMS, **vocabulary.BANDIT_SYNONYMS}


def test_every_meaning_is_one_readable_line() -> None:
    bad = [word for word, meaning in vocabulary.PARAMETERS.items()
           if not meaning.strip() or "\n" in meaning or len(meaning) > 200]
    assert not bad
    assert all(word.isidentifier() and word == word.strip() for word in vocabulary.PARAMETERS)


def test_the_checker_is_not_vacuous() -> None:
    def amplify(eps0: float, *, epsilon: float, frobnication: int) -> None:
        """A synonym, a word, and a name nobody defined."""

    found = {(where, name): None for where, f in _callables(amplify, "amplify")
             for name in _parameter_names(f)}
    assert _problems(found) == ["amplify: 'eps0' is a synonym of 'local_epsilon'",
                                "amplify: 'frobnication' is not in dpverify.vocabulary"]


def test_the_cli_walk_skips_hidden_deprecated_options() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--local-epsilon")
    parser.add_argument("--eps0", dest="local_epsilon", help=argparse.SUPPRESS)
    assert list(_options(parser)) == ["local_epsilon"]


# --- JSON keys ------------------------------------------------------------------------------

#: Commands whose ``--json`` output covers every JSON record type of the CLI (accounting,
#: shuffling, each kind of plan, an audit report, a simulation summary).
JSON_COMMANDS = [
    "account gaussian --sigma 1.0 --count 1000 --delta 1e-5",
    "account gaussian --sigma 1.0 --count 1000 --delta 1e-5 --method rdp",
    "account dp-sgd --noise-multiplier 1.1 --sampling-probability 0.004 --epochs 2 --delta 1e-5",
    "shuffle --local-epsilon 2 --users 10000 --delta 1e-6 --randomizer binary-rr --bound best",
    "plan dist-rdp-se --epsilon 1 --delta 1e-6 --horizon 1e6 --n-arms 10",
    "plan sblb --epsilon 1 --delta 1e-6 --horizon 1e6",
    "plan hanna-shuffled --epsilon 1 --delta 1e-6 --horizon 1e6",
    "plan dp-sgd --epsilon 3 --delta 1e-5 --dataset-size 60000 --batch-size 256 --epochs 10",
    "plan gaussian --epsilon 1 --delta 1e-5",
    "plan shuffle --epsilon 1 --delta 1e-6 --users 10000",
    "plan secure-aggregation --epsilon 1 --delta 1e-6 --users 1000",
    "audit laplace --samples 1e5 --seed 4",
    "simulate --algorithm vb-sdp-ae --instance easy --epsilon 0.5 --delta 1e-6 --horizon 1e4 --runs 2 --seed 0",
]


def _json_keys(value: Any, where: str, found: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            found.setdefault(str(key), where)
            _json_keys(item, f"{where}.{key}", found)
    elif isinstance(value, list):
        for item in value:
            _json_keys(item, f"{where}[]", found)


def _is_result_word(key: str) -> bool:
    words = {**vocabulary.PARAMETERS, **vocabulary.RESULTS}
    if key in words:
        return True
    word, _, symbol = key.rpartition("_")
    return word in words and symbol in vocabulary.PAPER_SYMBOLS


@pytest.mark.slow
def test_json_keys_are_words_of_the_vocabulary(capsys) -> None:
    """Every key of the CLI's ``--json`` records (and so of the reports' ``to_dict()``) is a word
    of PARAMETERS or RESULTS, or such a word with a paper symbol after it; none is a synonym."""
    import json
    import shlex

    from dpverify.cli import main

    found: dict[str, str] = {}
    for command in JSON_COMMANDS:
        status = main([*shlex.split(command), "--json"])
        assert status in (0, 1), command
        _json_keys(json.loads(capsys.readouterr().out), command.split(" --")[0], found)
    assert len(found) > 100
    unknown = sorted(f"{key} (in {where})" for key, where in found.items() if not _is_result_word(key))
    synonyms = sorted(f"{key} (in {where})" for key, where in found.items() if key in vocabulary.SYNONYMS)
    assert not unknown, "JSON keys outside the vocabulary: " + "; ".join(unknown)
    assert not synonyms, "JSON keys that are known synonyms: " + "; ".join(synonyms)


def test_result_words_do_not_repeat_parameter_words() -> None:
    assert not set(vocabulary.RESULTS) & set(vocabulary.PARAMETERS)
    assert not set(vocabulary.RESULTS) & set(vocabulary.SYNONYMS)
