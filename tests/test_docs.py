"""The documentation stays true: the site builds cleanly, and every example in
``README.md`` and ``docs/*.md`` runs and prints what the page shows.

How a page marks its examples (docs/layout.md, "Documentation", says the same):

* A fenced ``console`` block holds commands and what they print. A line
  ``$ trailkit ARGS`` is a command; the lines after it, up to the next ``$`` line or
  the end of the block, are its output (standard output and standard error together,
  as a terminal shows them). Only ``trailkit`` commands run, without pipes or
  redirections. Every command must exit 0 unless the line just before the block is
  ``<!-- exit: N -->`` (or ``<!-- exit: N, M -->``): one exit code per command, in order.
* Each block runs in a fresh temporary folder holding a copy of ``specs/`` and
  ``docs/examples/`` (at the same paths as in the repository), its
  commands one after the other, so ``--out`` files land there (never in the
  repository) and a later command of the same block reads them. A command runs with
  ``COLUMNS=80`` and UTF-8 output, inside this test process
  (:func:`in_process.trailkit` calls the command line's ``main`` and puts back all it
  changes: a fresh interpreter per command would import NumPy, OR-Tools and Numba
  each time); the README's blocks run as real processes, ``python -m
  trailkit.solvers.frontends.cli ARGS``, so that the path a user takes stays covered.
* Times are masked before comparing (``0.012 s``, ``"time_s": 0.0123``: the masks of
  ``tests/bench/outputs_snapshot.py``), so a page shows the real ones.
* Fenced ``pycon`` blocks are doctests: a page's blocks run in order in one namespace,
  in the same kind of temporary folder.
* ``python tests/test_docs.py --update [PAGE ...]`` runs every ``console`` block again
  and writes its real output and exit codes into the page (review the diff).

Other fenced blocks (``yaml``, ``sh``, ``text``, ...) are not run.
"""

from __future__ import annotations

import argparse
import difflib
import doctest
import functools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from bench.outputs_snapshot import masked  # tests/ is on the path (pytest, or run as a script)
from in_process import trailkit

from trailkit.solvers.frontends.cli.app import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
TRAILKIT = [sys.executable, "-m", "trailkit.solvers.frontends.cli"]
FENCE = re.compile(r"^```([\w-]*)\s*$")
EXIT_MARK = re.compile(r"^<!--\s*exit:\s*([\d,\s]+?)\s*-->\s*$")
SHELL_SYNTAX = {"|", "||", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&"}
README_MAX_LINES = 250
SANDBOX = ("specs", "docs/examples")  # copied into each example's folder


@dataclass(frozen=True)
class Command:
    line: str  # the text after "$ "
    output: tuple[str, ...]

    def argv(self) -> list[str]:
        words = shlex.split(self.line, comments=True)
        if not words or words[0] != "trailkit":
            raise ValueError(f"only trailkit commands run in console blocks: {self.line!r}")
        if SHELL_SYNTAX & set(words):
            raise ValueError(f"no pipes or redirections in console blocks: {self.line!r}")
        return words[1:]


@dataclass(frozen=True)
class Example:
    page: Path
    opening: int  # 0-based index of the opening fence
    closing: int  # 0-based index of the closing fence
    marker: int | None  # index of the exit marker line, if any
    commands: tuple[Command, ...]
    exits: tuple[int, ...]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.opening + 1}"

    @property
    def real(self) -> bool:
        """Whether its commands run as real processes: the README's do."""
        return self.page == README


def fenced_blocks(lines: list[str]) -> list[tuple[str, int, int]]:
    """Every top-level fenced block as (language, opening index, closing index)."""
    blocks, open_at, language = [], None, ""
    for i, line in enumerate(lines):
        fence = FENCE.match(line)
        if fence is None:
            continue
        if open_at is None:
            open_at, language = i, fence.group(1)
        elif not fence.group(1):
            blocks.append((language, open_at, i))
            open_at = None
    if open_at is not None:
        raise ValueError(f"a code block opened on line {open_at + 1} is never closed")
    return blocks


def examples(page: Path) -> list[Example]:
    """The ``console`` blocks of ``page``, parsed."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    for language, opening, closing in fenced_blocks(lines):
        if language != "console":
            continue
        where = f"{page.relative_to(ROOT)}:{opening + 1}"
        commands: list[Command] = []
        current: tuple[str, list[str]] | None = None
        for line in lines[opening + 1:closing]:
            if line.startswith("$ "):
                if current:
                    commands.append(Command(current[0], tuple(current[1])))
                current = (line[2:], [])
            elif current is None:
                raise ValueError(f"{where}: a console block starts with '$ trailkit ...'")
            else:
                current[1].append(line)
        if current:
            commands.append(Command(current[0], tuple(current[1])))
        mark = EXIT_MARK.match(lines[opening - 1]) if opening else None
        exits = (tuple(int(c) for c in re.split(r"[,\s]+", mark.group(1)) if c) if mark
                 else (0,) * len(commands))
        if len(exits) != len(commands):
            raise ValueError(f"{where}: {len(exits)} exit codes for {len(commands)} commands")
        found.append(Example(page, opening, closing, opening - 1 if mark else None,
                             tuple(commands), exits))
    return found


def sandbox(folder: Path) -> Path:
    """``folder`` with a copy of the bundled specs and of the pages' example files
    (``docs/examples/``), at the same paths as in the repository: where an example runs."""
    for part in SANDBOX:
        shutil.copytree(ROOT / part, folder / part)
    return folder


def run(command: Command, folder: Path, *, real: bool = False) -> tuple[int, str]:
    """Exit code and output (stdout and stderr in the order written) of one command: in
    this process, or (``real``) in a fresh one, as a user runs it."""
    if not real:
        ran = trailkit(command.argv(), folder)
        return ran.returncode, ran.output
    env = {**os.environ, "COLUMNS": "80", "PYTHONIOENCODING": "utf-8", "PYTHONUNBUFFERED": "1"}
    done = subprocess.run([*TRAILKIT, *command.argv()], cwd=folder, env=env, timeout=300,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          encoding="utf-8", check=False)
    return done.returncode, done.stdout


def _normal(text: str) -> str:
    return "\n".join(line.rstrip() for line in masked(text).strip("\n").splitlines())


def same_text(actual: str, expected: str) -> bool:
    """Whether two outputs agree once times are masked and trailing blanks dropped."""
    return _normal(actual) == _normal(expected)


ALL_EXAMPLES = [example for page in PAGES for example in examples(page)]


def test_the_pages_have_examples() -> None:
    """The convention is in use (a typo in a fence's language would silently skip a block)."""
    assert len(ALL_EXAMPLES) >= 20
    assert sum(1 for e in ALL_EXAMPLES if e.page.name == "README.md") >= 4


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=lambda e: e.name)
def test_console_example(example: Example, tmp_path: Path) -> None:
    folder = sandbox(tmp_path)
    for command, code in zip(example.commands, example.exits, strict=True):
        got_code, got = run(command, folder, real=example.real)
        expected = "\n".join(command.output)
        diff = "\n".join(difflib.unified_diff(
            _normal(expected).splitlines(), _normal(got).splitlines(), "the page", "printed",
            lineterm=""))
        assert same_text(got, expected) and got_code == code, (
            f"{example.name}: $ {command.line}\n"
            f"exit {got_code} (the page says {code})\n{diff}\n"
            f"(python tests/test_docs.py --update rewrites the page's outputs)")


@pytest.mark.parametrize("line", [
    "trailkit solve docs/examples/typo.yaml --json",  # exit 2: stderr, then stdout
    "trailkit solve --no-such-option",  # argparse's SystemExit(2)
    "trailkit --help",  # wrapped at COLUMNS=80, SystemExit(0)
])
def test_a_command_prints_the_same_in_this_process(line: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process run the pages' examples use shows what a real process shows, byte
    for byte and in the order written, with its exit code; and puts back the folder,
    the environment and the streams (docs/layout.md, "Documentation")."""
    monkeypatch.setenv("COLUMNS", "132")  # both runs must make it 80
    command = Command(line, ())
    folder = sandbox(tmp_path)
    state = (os.getcwd(), dict(os.environ), sys.stdout, sys.stderr)
    assert run(command, folder) == run(command, folder, real=True)
    assert (os.getcwd(), dict(os.environ), sys.stdout, sys.stderr) == state


def _meddling_main(argv: list[str]) -> int:
    """A command line that changes what a command may change in its process."""
    import logging

    from trailkit.models.support import jit

    os.chdir("/")
    os.environ["TRAILKIT_MEDDLED"] = argv[0]
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
    logging.getLogger().addHandler(logging.NullHandler())
    jit.on_compile(lambda what, seconds: None)
    print("out")
    print("err", file=sys.stderr)
    warnings.warn("shown as a process shows it", UserWarning, stacklevel=1)
    sys.stdout = sys.stderr = None  # type: ignore[assignment]
    raise SystemExit("said on stderr, exit 1")


def test_the_in_process_run_puts_back_what_a_command_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing a command changes leaks into the worker's later tests; a changed resource
    limit (only a forked child may set one) fails the run, and is put back."""
    import logging
    import resource

    from trailkit.models.support import jit
    from trailkit.solvers.frontends import cli

    state = (os.getcwd(), dict(os.environ), signal.getsignal(signal.SIGUSR1),
             signal.pthread_sigmask(signal.SIG_BLOCK, ()), list(logging.getLogger().handlers),
             list(jit._compile_listeners), sys.stdout, sys.stderr)
    monkeypatch.setattr(cli, "main", _meddling_main)
    ran = trailkit(["x"], tmp_path)
    assert (ran.returncode, ran.stdout) == (1, "out\n")
    assert ran.stderr.startswith("err\n") and ran.stderr.endswith("\nsaid on stderr, exit 1\n")
    assert "UserWarning: shown as a process shows it" in ran.stderr  # not pytest's record
    assert ran.output == "out\n" + ran.stderr
    assert state == (os.getcwd(), dict(os.environ), signal.getsignal(signal.SIGUSR1),
                     signal.pthread_sigmask(signal.SIG_BLOCK, ()),
                     list(logging.getLogger().handlers), list(jit._compile_listeners),
                     sys.stdout, sys.stderr)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    monkeypatch.setattr(cli, "main", lambda argv: resource.setrlimit(
        resource.RLIMIT_NOFILE, (soft - 1, hard)) or 0)
    with pytest.raises(AssertionError, match="resource limits"):
        trailkit(["x"])
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (soft, hard)


def pycon_blocks(page: Path) -> list[tuple[int, str]]:
    lines = page.read_text(encoding="utf-8").splitlines()
    return [(opening + 1, "\n".join(lines[opening + 1:closing]) + "\n")
            for language, opening, closing in fenced_blocks(lines) if language == "pycon"]


@pytest.mark.parametrize("page", [p for p in PAGES if pycon_blocks(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's ``pycon`` blocks, run as doctests in order, sharing their names."""
    monkeypatch.chdir(sandbox(tmp_path))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    names: dict[str, object] = {"__name__": "docs"}
    for line, text in pycon_blocks(page):
        test = parser.get_doctest(text, names, f"{page.name}:{line}", str(page), line)
        runner.run(test, clear_globs=False)
        names = test.globs  # a DocTest works on a copy: the next block goes on from here
    assert runner.summarize(verbose=False).failed == 0, f"a Python example of {page.name} failed"


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a broken link, a missing anchor or a page left out of
    the navigation fails the build."""
    pytest.importorskip("mkdocs", reason="mkdocs comes with the test and docs extras")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "index.html").exists()


def _anchors(page: Path) -> set[str]:
    from markdown.extensions.toc import slugify

    lines = page.read_text(encoding="utf-8").splitlines()
    code = {i for _, a, b in fenced_blocks(lines) for i in range(a, b + 1)}
    return {slugify(re.sub(r"[`*]", "", line.lstrip("#").strip()), "-")
            for i, line in enumerate(lines) if line.startswith("#") and i not in code}


def test_the_readme_links_lead_somewhere() -> None:
    """The README is outside the site (mkdocs does not check it): every relative link
    names a file that exists, and every ``#anchor`` a heading of that file."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert links
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / "README.md"
        assert target.exists(), f"README links to {path}, which does not exist"
        if anchor:
            assert anchor in _anchors(target), f"README links to {link}: no such heading"


def test_the_readme_stays_a_front_page() -> None:
    """Short, and its second Quick start command is the one CI runs (``.ci/run``, in a
    subshell, so that a failure in it fails CI), which then runs the Hypothesis tests
    again with the ``thorough`` profile and the tests marked ``long`` that the command
    leaves out."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < README_MAX_LINES
    start = readme.split("## Quick start", 1)[1]
    commands = re.findall(r"```sh\n(.+?)\n```", start, re.S)[:2]
    assert commands[0].endswith("trailkit solve specs/nikolaus.yaml --backend all")
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith("#")]
    parallel = ".venv/bin/python -m pytest -n auto --dist worksteal -m"
    assert ci[-5:] == [f"( {commands[1]} )", "export HYPOTHESIS_PROFILE=thorough",
                       f'{parallel} "property and not alone and not long"',
                       f'{parallel} "long and not alone"',
                       '.venv/bin/python -m pytest -m "long and alone"']
    assert '-m "not alone and not long"' in commands[1]


# ------------------------------------------------ the pages agree with the code
# What running the examples cannot catch: a sentence that denies an option the parser
# has, a citation of a file a reader cannot open, a page the front page's table leaves
# out, and a page whose examples, followed in order in one folder, would trip over a
# file an earlier one wrote.

DOCS = ROOT / "docs"
COMMANDS_PAGE = DOCS / "commands.md"
# "CONTRACT 1.3 §6", "STYLE.md section 2": a document cited by name and section.
CITATION = re.compile(r"\b([A-Z][A-Z_-]{2,})(?:\.md)?\s+v?\d+(?:\.\d+)*,?\s+(?:§|section\b)")
MD_NAME = re.compile(r"(?<![\w/.-])([\w./-]+\.md)\b")
DENIAL = re.compile(r"`?(?:prove )?--claim`? (?:has|takes|offers) no `([\w-]+)`")
WRITES = ("--out", "--proof-dir")


def _choices(command: str, option: str) -> tuple[str, ...]:
    """The choices the real parser gives ``trailkit COMMAND OPTION``."""
    parser = build_parser({"answers"})
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if option in a.option_strings)
    assert action.choices is not None
    return tuple(action.choices)


def _prose(page: Path) -> str:
    """``page`` without its fenced blocks (help output there lists choices, not prose)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    code = {i for _, a, b in fenced_blocks(lines) for i in range(a, b + 1)}
    return "\n".join(line for i, line in enumerate(lines) if i not in code)


def test_every_claim_prove_takes_is_documented_and_none_denied() -> None:
    """Each ``--claim`` choice has its prose in commands.md, and no page says it is missing
    (commands.md once said ``prove --claim`` has no ``minimal-core``, which it had)."""
    claims = _choices("prove", "--claim")
    prose = _prose(COMMANDS_PAGE)
    for claim in claims:
        assert f"--claim {claim}`" in prose or claim == "unsolvable", (
            f"commands.md never describes `prove --claim {claim}`")
    for page in PAGES:
        denied = set(DENIAL.findall(_prose(page).replace("\n", " "))) & set(claims)
        assert not denied, f"{page.relative_to(ROOT)} says prove --claim has no {denied}"


def _exists(name: str, page: Path) -> bool:
    return any((base / name).exists() for base in (ROOT, DOCS, page.parent))


@functools.cache
def _stems() -> frozenset[str]:
    """The names (without suffix, in capitals) of the repository's files, hidden folders
    (``.git``, ``.venv``) left out."""
    found = set()
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [s for s in subfolders if not s.startswith(".")]
        found |= {Path(folder, f).stem.upper() for f in files}
    return frozenset(found)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_cites_a_file_the_repository_lacks(page: Path) -> None:
    """A reader can open what a page cites: every ``NAME.md`` it names is in the
    repository, and a document cited by section ("CONTRACT 1.3 §6") is one of its files."""
    text = page.read_text(encoding="utf-8")
    missing = sorted({n for n in MD_NAME.findall(text) if not _exists(n, page)})
    assert not missing, f"{page.relative_to(ROOT)} names {missing}, not in the repository"
    cited = sorted({m.group(0) for m in CITATION.finditer(text)
                    if m.group(1) not in _stems()})
    assert not cited, f"{page.relative_to(ROOT)} cites {cited}: no such file in the repository"


def test_the_front_page_names_every_page() -> None:
    """docs/index.md's table links every page of the reference, in the site's order."""
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = re.findall(r"^\| \[[^]]+\]\(([\w-]+\.md)\) \|", index, re.M)
    pages = [p.name for p in sorted(DOCS.glob("*.md")) if p.name != "index.md"]
    assert sorted(linked) == sorted(pages), f"missing: {sorted(set(pages) - set(linked))}"
    nav = re.findall(r"^  - [^:]+: ([\w-]+\.md)$", (ROOT / "mkdocs.yml").read_text(), re.M)
    assert linked == [p for p in nav if p != "index.md"], "index.md's table and mkdocs.yml's nav"


def _written(words: list[str]) -> list[str]:
    """The files or folders a command's words name as what it writes."""
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w in WRITES]


def _page_examples(page: Path) -> list[Example]:
    return [e for e in ALL_EXAMPLES if e.page == page]


@pytest.mark.parametrize("page", [p for p in PAGES if _page_examples(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_page_followed_in_order_overwrites_nothing(page: Path) -> None:
    """A reader who types a page's examples in order, in one folder, is never refused
    because an earlier example wrote the same file (commands.md's second ``design trail
    --out figure.yaml`` was, after the first had written it): a later ``--out`` of a file
    an earlier command wrote (exit 0 or 1) says ``--force``, or names another file."""
    written: dict[str, str] = {}
    for example in _page_examples(page):
        for command, code in zip(example.commands, example.exits, strict=True):
            words = shlex.split(command.line, comments=True)
            for target in _written(words):
                assert target not in written or "--force" in words, (
                    f"{example.name}: $ {command.line}\nrefused after {written[target]}, "
                    f"which wrote {target}")
                if code in (0, 1):
                    written[target] = f"$ {command.line}"


# ------------------------------------------------------------------- --update
def update(page: Path) -> int:
    """Run every console block of ``page`` and write its real outputs and exit codes in
    (an output that differs from the page's only in its times is left as it is)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    changed = 0
    for example in reversed(examples(page)):
        body, codes = [], []
        with tempfile.TemporaryDirectory() as tmp:
            folder = sandbox(Path(tmp))
            for command in example.commands:
                code, output = run(command, folder, real=example.real)
                if same_text(output, "\n".join(command.output)):
                    output = "\n".join(command.output)  # only the times differ: keep the page's
                body += [f"$ {command.line}", *output.rstrip("\n").splitlines()]
                codes.append(code)
        marker = ([f"<!-- exit: {', '.join(map(str, codes))} -->"] if any(codes) else [])
        first = example.opening if example.marker is None else example.marker
        new = [*marker, lines[example.opening], *body, lines[example.closing]]
        if lines[first:example.closing + 1] != new:
            changed += 1
            print(f"updated {example.name}")
        lines[first:example.closing + 1] = new
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


if __name__ == "__main__":
    if sys.argv[1:2] != ["--update"]:
        sys.exit(f"usage: python {sys.argv[0]} --update [PAGE ...]")
    chosen = [Path(p).resolve() for p in sys.argv[2:]] or PAGES
    total = sum(update(page) for page in chosen)
    print(f"{total} example(s) rewritten")
