"""The README's and the user guide's examples run as written and print what they show.

The pages checked: ``README.md`` and every ``docs/guide/*.md`` (test ids name the
file and line). The conventions (stated for writers at the top of ``README.md``
and in ``docs/guide/index.md``):

* A ```` ```python ```` block written as a doctest session (``>>>`` lines) is run,
  one namespace per block, and every shown output is compared with the computed
  one by :func:`outputs_match`.
* In a ```` ```console ```` block, a ``$ dpverify ...`` line followed by output
  lines is run (in-process, through :func:`dpverify.cli.main`) and its standard
  output compared the same way; its exit status must be 0, or N when the line
  ends with a comment saying ``exit status N``. Command lines shown without
  output are not run.
* ``<!-- readme: skip (reason) -->`` on the line before a block leaves it out.

:func:`outputs_match` compares text exactly up to runs of white space, ``...``
stands for any text, and every number must equal the computed one rounded to
the digits shown: ``|shown − computed| <= ½ unit of the last shown digit``
(``0.0626`` admits [0.06255, 0.06265]; ``1929`` only 1929; ``4.491e+04``
admits ±5). A wall-clock time, a number followed by `` s`` (``1.99 s``), is
not compared.
"""

from __future__ import annotations

import doctest
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
#: Every page whose examples are run: the README and the user guide's pages.
PAGES = [README, *sorted(GUIDE.glob("*.md"))]

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_TOKEN = re.compile(rf"(?P<ellipsis>\.\.\.)|(?P<time>{_NUMBER}(?= s\b))|(?P<number>{_NUMBER})"
                    r"|(?P<space>\s+)|(?P<text>.)", re.DOTALL)
_SKIP = re.compile(r"<!--\s*readme:\s*skip\b")
_EXIT_STATUS = re.compile(r"#.*\bexit status (\d+)")


def _half_unit(shown: str) -> float:
    """Half a unit of the last digit of ``shown`` (``"0.0626"`` -> 5e-5, ``"4.491e+04"`` -> 5)."""
    mantissa, _, exponent = shown.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def outputs_match(want: str, got: str) -> bool:
    """Whether ``got`` shows what ``want`` shows, under the module docstring's rules."""
    pattern, numbers = [], []
    for token in _TOKEN.finditer(want.strip()):
        kind, value = token.lastgroup, token.group()
        if kind == "ellipsis":
            pattern.append(".*?")
        elif kind == "time":
            pattern.append(_NUMBER)
        elif kind == "number":
            pattern.append(f"({_NUMBER})")
            numbers.append(value)
        elif kind == "space":
            pattern.append(r"\s+")
        else:
            pattern.append(re.escape(value))
    match = re.fullmatch("".join(pattern), got.strip(), re.DOTALL)
    if match is None:
        return False
    return all(abs(float(computed) - float(shown)) <= _half_unit(shown) * (1 + 1e-12)
               for shown, computed in zip(numbers, match.groups(), strict=True))


class _ShownDigitsChecker(doctest.OutputChecker):
    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want, got, optionflags) or outputs_match(want, got)


@dataclass(frozen=True)
class Block:
    """One fenced code block of a checked page."""

    language: str
    text: str
    line: int  # 1-based line number of the block's first content line
    section: str
    skipped: bool
    page: str = "README.md"  # the page's path relative to the repository

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.section.lower()).strip("-")
        return f"{self.page}:{self.line}-{slug}"


def readme_blocks(text: str, page: str = "README.md") -> list[Block]:
    """The fenced code blocks of ``text``, with their section heading and skip marker."""
    blocks, section, previous, lines = [], "top", "", text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#") and not line.startswith("#!"):
            section = line.lstrip("#").strip()
        fence = re.fullmatch(r"```(\w*|\{[\w-]+\}.*?)\s*", line)  # MyST directives too
        if fence:
            end = lines.index("```", index + 1)
            blocks.append(Block(fence.group(1), "\n".join(lines[index + 1:end]) + "\n",
                                index + 2, section, bool(_SKIP.search(previous)), page))
            index = end + 1
            previous = ""
            continue
        if line.strip():
            previous = line
        index += 1
    return blocks


@dataclass(frozen=True)
class ShownCommand:
    """A ``$ dpverify ...`` line of a console block and the output shown under it."""

    command: str
    output: str
    status: int
    line: int  # 1-based line number of the command in its page
    page: str = "README.md"


def shown_commands(block: Block) -> list[ShownCommand]:
    """The commands of a console block that are followed by output lines."""
    found: list[ShownCommand] = []
    command, output, start = None, [], 0
    for offset, line in enumerate(block.text.split("\n") + ["$"]):
        if line.startswith("$"):
            if command is not None and any(out.strip() for out in output):
                status = _EXIT_STATUS.search(command)
                found.append(ShownCommand(command, "\n".join(output).strip("\n"),
                                          int(status.group(1)) if status else 0, block.line + start,
                                          block.page))
            command, output, start = line[1:].strip(), [], offset
        elif command is not None and command.endswith("\\") and not output:
            command = command[:-1].rstrip() + " " + line.strip()  # a continued command line
        elif command is not None:
            output.append(line)
    return found


_BLOCKS = [block for page in PAGES
           for block in readme_blocks(page.read_text(encoding="utf-8"),
                                      str(page.relative_to(ROOT)))]
_DOCTESTS = [block for block in _BLOCKS
             if block.language == "python" and ">>>" in block.text and not block.skipped]
_COMMANDS = [command for block in _BLOCKS if block.language == "console" and not block.skipped
             for command in shown_commands(block)]


@pytest.mark.slow
@pytest.mark.parametrize("block", _DOCTESTS, ids=[block.id for block in _DOCTESTS])
def test_python_example_prints_what_the_page_shows(block: Block) -> None:
    test = doctest.DocTestParser().get_doctest(block.text, {"__name__": "readme"},
                                               f"{block.page}:{block.line}",
                                               str(ROOT / block.page), block.line - 1)
    report: list[str] = []
    runner = doctest.DocTestRunner(checker=_ShownDigitsChecker(),
                                   optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    if result.failed:
        pytest.fail(f"example out of date (edit {block.page} or the code):\n" + "".join(report),
                    pytrace=False)


@pytest.mark.parametrize("shown", _COMMANDS, ids=[f"{c.page}:{c.line}-{c.command.split()[1]}"
                                                  for c in _COMMANDS])
@pytest.mark.slow
def test_command_prints_what_the_page_shows(shown: ShownCommand,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from dpverify.cli import main

    argv = shlex.split(shown.command, comments=True)
    assert argv[0] == "dpverify", f"{shown.page}:{shown.line}: not a dpverify command"
    try:
        status = main(argv[1:])
    except SystemExit as exit_info:  # argparse's own exits (bad input)
        status = exit_info.code
    out = capsys.readouterr().out
    assert status == shown.status, (
        f"{shown.page}:{shown.line}: `{shown.command}` exited {status}, the page says {shown.status}")
    assert outputs_match(shown.output, out), (
        f"{shown.page}:{shown.line}: `{shown.command}` now prints\n{out}\nthe page shows\n"
        f"{shown.output}")


def test_the_readme_and_the_guide_have_checked_examples() -> None:
    """The parser finds the examples (a rewrite cannot switch the checks off silently)."""
    readme = [block for block in _DOCTESTS if block.page == "README.md"]
    assert len(readme) >= 3 and any(c.page == "README.md" for c in _COMMANDS)
    assert len(_DOCTESTS) >= 20 and len(_COMMANDS) >= 10
    assert sum(block.text.count(">>>") for block in _DOCTESTS) >= 100
    checked = {block.page for block in _DOCTESTS} | {c.page for c in _COMMANDS}
    for page in ("accounting", "dp-sgd", "shuffle", "planning", "auditing", "testing",
                 "bandits", "which-number"):
        assert f"docs/guide/{page}.md" in checked, f"docs/guide/{page}.md has no checked example"


@pytest.mark.parametrize("want, got, expected", [
    ("0.0626", "0.06261672225278507", True),
    ("0.0627", "0.06261672225278507", False),
    ("117.974", "117.97401692082346", True),
    ("117.980", "117.97401692082346", False),
    ("1929", "1929.4", True),
    ("1929", "1930", False),
    ("4.491e+04", "4.4914e+04", True),
    ("4.491e+04", "4.4960e+04", False),
    ("(epsilon=10, delta=0.25)-DP", "(epsilon=10, delta=0.24999999999905084)-DP", True),
    ("ApproxDP(epsilon=10.0, delta=0.25)", "ZCDP(epsilon=10.0, delta=0.25)", False),
    ("regret 0.5; 1.99 s", "regret 0.5; 0.41 s", True),
    ("regret 0.5; 1.99 s", "regret 0.6; 1.99 s", False),
    ("PrivacyProfile(curve=<function ...>, n=3)", "PrivacyProfile(curve=<function f at 0x7f>, n=3)",
     True),
    ("a  b\nc", "a b c", True),
    ("a b", "a b c", False),
    ("array([ 5, 13])", "array([ 5, 13,  9])", False),
])
def test_outputs_match(want: str, got: str, expected: bool) -> None:
    assert outputs_match(want, got) is expected


def test_blocks_commands_and_skip_markers_are_parsed() -> None:
    text = ("# A\n\n```console\n$ dpverify x --y 1   # exit status 1\nout 1\n$ dpverify z \\\n"
            "    --long-option\n```\n"
            "## B\n<!-- readme: skip (slow) -->\n```python\n>>> 1\n1\n```\n")
    console, python = readme_blocks(text)
    assert (console.language, console.section, console.line, console.skipped) == ("console", "A", 4,
                                                                                  False)
    assert (python.section, python.skipped) == ("B", True)
    [shown] = shown_commands(console)
    assert (shown.output, shown.status, shown.line) == ("out 1", 1, 4)
    assert shown.command.startswith("dpverify x")
