"""The workshop's page in a real browser (headless Debian chromium, driven by Playwright):
type a puzzle and see it drawn, see a typo located with "did you mean", solve with every
backend and step through the walk, repair the tyre puzzle and undo it, edit on the
picture (join two tyres, drag one, recolour a plank) and save; on a board, click cells
to set givens and holes, solve and step, design a tour. A screenshot is taken at
each stage (into ``$TRAILKIT_WORKSHOP_SHOTS`` when set: the docs' pictures come from
there). No request may leave the machine."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from chromium import CHROMIUM_ARGS, find_chromium
from workshop_server import Served, start

from trailkit.models.spec import load_spec_text
from trailkit.solvers.backends.registry import backend_names
from trailkit.solvers.frontends.presenter.design_options import TOUR_MOVES

# A browser driven against the clock of a page: on a machine of its own (issue 30). Seven
# end-to-end sessions of a real browser and server, a minute together: long, so .ci/run
# runs them after the README's command, by themselves (issue 41 item 24); the README's
# own run keeps a real browser through tests/solvers/tools/drawing/test_drawing_pages.py.
pytestmark = [pytest.mark.alone, pytest.mark.long]

ROOT = Path(__file__).resolve().parents[4]
#: A count that takes far longer than a test: the longest walks of a 60-edge graph (the
#: graph of test_workshop.py's SLOW).
SLOW = ("trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: longest\nedges: ["
        "0 2, 0 4, 0 8, 0 19, 0 23, 1 3, 1 9, 1 17, 1 19, 2 11, 2 13, 2 15, 2 18, 2 21, "
        "3 9, 3 13, 3 18, 3 19, 4 7, 4 8, 4 11, 4 15, 4 17, 4 20, 5 18, 5 22, 6 8, 6 13, "
        "6 20, 6 22, 7 16, 7 17, 7 18, 8 15, 8 17, 8 18, 9 13, 9 19, 9 20, 10 18, 10 21, "
        "10 22, 11 17, 11 19, 12 16, 12 18, 12 20, 12 22, 12 23, 13 16, 13 18, 13 21, "
        "13 22, 14 18, 15 17, 15 19, 15 20, 17 18, 19 21, 20 22]\n")
ORIGINAL = ROOT / "specs" / "tyre-puzzle" / "original.yaml"
NUMBRIX = ROOT / "docs" / "examples" / "numbrix.yaml"
NIKOLAUS = """trailkit: 1
name: Das Haus vom Nikolaus
kind: trail
nodes: [a, b, c, d, e]
# the house: a roof on a square with both diagonals
edges: [a b, a c, b c, b d, b e, c d, c e, d e]
layout: {a: [1, 2], b: [0, 1], c: [2, 1], d: [0, 0], e: [2, 0]}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    executable = find_chromium()
    if executable is None:
        pytest.skip("no chromium found on PATH (Debian: apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("TRAILKIT_WORKSHOP_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser, server: Served, width: int = 1400):
    page = browser.new_page(viewport={"width": width, "height": 900})
    outside: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: r.url.startswith(server.base) or outside.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")
    page.outside, page.errors = outside, errors
    return page


def wait_until(page, expression: str, timeout_s: float = 120.0) -> None:
    """Wait until ``expression`` is true in the page. (Playwright's wait_for_function
    evaluates a string with eval, which the page's Content-Security-Policy forbids, as
    it should; page.evaluate goes through the debugger protocol, which the policy does
    not govern.) Polls for the sign, never a fixed wait."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {expression}"
        page.wait_for_timeout(15)


def wait_for(sign, timeout_s: float = 120.0, what: str = "the sign") -> None:
    """Poll ``sign()`` (a question to the server) until it is true."""
    deadline = time.monotonic() + timeout_s
    while not sign():
        assert time.monotonic() < deadline, f"no sign that {what} after {timeout_s} s"
        time.sleep(0.02)


def editor_text(page) -> str:
    return page.evaluate("TrailkitEditor.text(workshop.view)")


def replace_text(page, text: str) -> None:
    """Type ``text`` into the editor, as a person would (select all, then type)."""
    page.click(".cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.type(text)


def wait_analysed(page) -> None:
    """Wait until the page shows the analysis of the text it now holds."""
    wait_until(page, "workshop.timer === null && workshop.seq > 0 && !workshop.pending"
                           " && workshop.shown === workshop.seq && !workshop.inFlight")


@pytest.mark.slow
def test_type_see_fix_and_solve_with_every_backend(browser, shots: Path) -> None:
    server = start(None)
    try:
        page = open_page(browser, server)
        replace_text(page, NIKOLAUS)
        wait_analysed(page)
        assert page.locator("#drawing svg .node").count() == 5
        assert page.locator("#drawing svg .edge").count() == 8
        assert page.locator("#problems li.ok").count() == 1
        page.screenshot(path=shots / "1-typed.png")

        # a typo in a node name: located at its line and column, with "did you mean"
        page.click(".cm-content")
        page.keyboard.press("Control+Home")
        for _ in range(5):
            page.keyboard.press("ArrowDown")  # to the edges line
        page.keyboard.press("End")
        for _ in range(len(", d e]")):
            page.keyboard.press("ArrowLeft")
        page.keyboard.type("e")  # "c e" becomes "c ee"
        page.wait_for_selector("#problems li.error")
        wait_analysed(page)
        problem = page.locator("#problems li.error").first.inner_text()
        assert problem.startswith("line 6, column 39: ") and "did you mean 'e'" in problem
        assert page.locator(".cm-lintRange-error").count() == 1
        page.screenshot(path=shots / "2-typo.png")
        page.keyboard.press("Backspace")
        page.wait_for_selector("#problems li.ok")
        assert editor_text(page) == NIKOLAUS

        # solve with every backend and step through the walk
        for name in backend_names():
            page.select_option("#backend", name)
            page.click("#solve")
            page.wait_for_selector("body[data-answer='solved:solve']")
            assert page.locator("#steps li").count() == 8
            assert f"solved by {name}" in page.inner_text("#answer-text")
            for _ in range(3):
                page.click("#next")
            assert page.get_attribute("body", "data-step") == "3"
            assert page.locator("#drawing svg .step.current").count() == 1
            assert page.locator("#drawing svg .step.later").count() == 5
            page.click("#prev")
            assert page.get_attribute("body", "data-step") == "2"
            if name == backend_names()[0]:
                page.screenshot(path=shots / "3-solved.png")
            page.evaluate("document.body.dataset.answer = ''")
        assert not page.outside and not page.errors, (page.outside, page.errors)
    finally:
        assert server.stop() == 0


@pytest.mark.slow
def test_repair_edit_on_the_picture_and_save(browser, shots: Path,
                                             tmp_path: Path) -> None:
    folder = tmp_path / "specs"
    folder.mkdir()
    shutil.copy(ORIGINAL, folder / "original.yaml")
    original = ORIGINAL.read_text()
    server = start(folder)
    try:
        page = open_page(browser, server)
        wait_analysed(page)
        assert editor_text(page) == original
        assert page.locator("#drawing svg .node").count() == 38

        # the puzzle as found is impossible: a repair, applied in one click, undone
        page.click("#repair")
        page.wait_for_selector("body[data-answer='repaired:repair']")
        apply = page.locator("#repairs button.apply").first
        assert apply.inner_text() == "Apply: add a new green plank AA-AB"
        page.screenshot(path=shots / "4-repair.png")
        apply.click()
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('- AA AB green')")
        wait_analysed(page)
        page.click("#solve")
        page.wait_for_selector("body[data-answer='solved:solve']")
        assert page.locator("#steps li").count() == 25
        page.screenshot(path=shots / "5-repaired-solved.png")
        page.click("#picture", position={"x": 4, "y": 4})  # off the editor: the page's undo
        page.keyboard.press("Control+z")
        wait_until(page, "!TrailkitEditor.text(workshop.view).includes('AA AB')")
        assert editor_text(page) == original
        page.keyboard.press("Control+Shift+z")
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('- AA AB green')")
        page.keyboard.press("Control+z")
        wait_analysed(page)

        # join two tyres with a red plank: click one, then the other
        page.select_option("#colour", "red")
        page.click('#drawing svg .node[data-node="K"]')
        page.click('#drawing svg .node[data-node="X"]')
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('- K X red')")
        wait_analysed(page)
        # drag tyre T to the right, by about half a neighbour distance (U is 2 to its
        # right; the picture's scale follows the space the answer leaves it)
        box = page.locator('#drawing svg .node[data-node="T"] circle.tyre').bounding_box()
        right = page.locator('#drawing svg .node[data-node="U"] circle.tyre').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        step = (right["x"] - box["x"]) / 2 / 5
        page.mouse.move(x, y)
        page.mouse.down()
        for k in range(1, 6):
            page.mouse.move(x + step * k, y)
        page.mouse.up()
        wait_until(page, "!TrailkitEditor.text(workshop.view).includes('  T: [7, 0]')")
        wait_analysed(page)
        # click plank A-E and paint it blue
        page.click('#drawing svg .edge[data-edge="0"]')
        page.click('#edge-colours button[data-colour="blue"]')
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('- A E blue')")
        wait_analysed(page)
        page.screenshot(path=shots / "6-edited.png")

        text = editor_text(page)
        spec = load_spec_text(text)
        t = spec.layout["T"]
        assert 7.2 < t[0] < 8.2 and t[1] == 0, t
        assert spec.num_edges == load_spec_text(original).num_edges + 1
        kept = [line for line in original.splitlines() if line.lstrip().startswith("#")]
        assert [line for line in text.splitlines() if line.lstrip().startswith("#")] == kept
        changed = [b for a, b in zip(original.splitlines(), text.splitlines(), strict=False)
                   if a != b]
        assert changed[0] == "  - A E blue" or changed[0].startswith("  T: [")
        # each picture edit is one step of undo: three undos give the original back
        page.click("#picture", position={"x": 4, "y": 4})
        for _ in range(3):
            page.keyboard.press("Control+z")
        wait_until(page, f"TrailkitEditor.text(workshop.view) === {json.dumps(original)}")
        for _ in range(3):
            page.keyboard.press("Control+Shift+z")
        wait_until(page, f"TrailkitEditor.text(workshop.view) === {json.dumps(text)}")

        page.click("#save")
        wait_until(page, "document.getElementById('file-status').textContent"
                               ".endsWith('(saved)')")
        assert (folder / "original.yaml").read_text() == text
        assert not page.outside and not page.errors, (page.outside, page.errors)
    finally:
        assert server.stop() == 0


def _type(page, *keys: str) -> None:
    """Type as a person does: text, and Enter between lines (the editor indents)."""
    for key in keys:
        if key in ("Enter", "Tab", "Backspace"):
            page.keyboard.press(key)
        else:
            page.keyboard.type(key)


@pytest.mark.slow
def test_typing_lists_counting_failures_and_words(browser, shots: Path) -> None:
    """Issue 30 item 8: a block list typed naturally is the YAML it looks like; Count
    can ask for failures; "1 step", never "1 steps"; the backend picker lists every
    backend that loads."""
    server = start(None)
    try:
        page = open_page(browser, server)
        page.click(".cm-content")
        page.keyboard.press("Control+a")
        page.keyboard.press("Delete")
        _type(page, "trailkit: 1", "Enter", "kind: trail", "Enter", "edges:", "Enter",
              "- A B", "Enter", "- B C", "Enter", "layout:", "Enter", "A: [0, 0]", "Enter",
              "B: [1, 0]", "Enter", "C: [2, 0]", "Enter", "Backspace", "start: A")
        typed = editor_text(page)
        assert yaml.safe_load(typed) == {
            "trailkit": 1, "kind": "trail", "edges": ["A B", "B C"],
            "layout": {"A": [0, 0], "B": [1, 0], "C": [2, 0]}, "start": "A"}, typed
        wait_analysed(page)
        assert page.locator("#problems li.ok").count() == 1
        page.screenshot(path=shots / "8-typed-list.png")

        # a one-step walk is "1 step" everywhere on the page
        replace_text(page, "trailkit: 1\nkind: trail\nedges: [a b]\n")
        wait_analysed(page)
        page.click("#solve")
        page.wait_for_selector("body[data-answer='solved:solve']")
        page.click("#whole")
        assert page.inner_text("#step-text") == "The whole walk: 1 step"
        assert ": 1 step, verified" in page.inner_text("#answer-text")
        assert "1 steps" not in page.inner_text("body")

        # Count, with failures
        replace_text(page, NIKOLAUS)
        wait_analysed(page)
        page.check("#count-failures")
        page.click("#count")
        page.wait_for_selector("body[data-answer='solved:count']")
        said = page.inner_text("#answer-text")
        assert "failures:       266" in said and "early failures: 23" in said, said
        page.screenshot(path=shots / "8-count-failures.png")

        listed = page.eval_on_selector_all("#backend option", "os => os.map(o => o.value)")
        assert listed[:len(backend_names())] == backend_names()
        for program, name in (("minizinc", "minizinc:gecode"), ("cadical", "dimacs:cadical")):
            if shutil.which(program):
                assert name in listed, listed
        assert not page.outside and not page.errors, (page.outside, page.errors)
    finally:
        assert server.stop() == 0


def _plank_points(page, edge: int) -> list[tuple[float, float]]:
    """Screen points along plank ``edge``: 19 along its middle line and 19 on each side,
    a unit inside its drawn width; points on a tyre are left out (a click there is the
    tyre's)."""
    return page.evaluate("""edge => {
      const svg = document.querySelector('#drawing svg');
      const plank = svg.querySelector(`.edge[data-edge="${edge}"] path.plank`);
      const half = parseFloat(plank.getAttribute('stroke-width')) / 2 - 1;
      const tyres = [...svg.querySelectorAll('.node circle.tyre')].map(c => [
        +c.getAttribute('cx'), +c.getAttribute('cy'),
        +c.getAttribute('r') + (parseFloat(c.getAttribute('stroke-width')) || 0)]);
      const m = plank.getScreenCTM(), length = plank.getTotalLength(), out = [];
      for (let i = 1; i < 20; i++) {
        const p = plank.getPointAtLength(length * i / 20);
        const q = plank.getPointAtLength(Math.min(length, length * i / 20 + 0.5));
        const d = Math.hypot(q.x - p.x, q.y - p.y) || 1;
        for (const side of [-half, 0, half]) {
          const x = p.x - (q.y - p.y) / d * side, y = p.y + (q.x - p.x) / d * side;
          if (tyres.some(([cx, cy, r]) => Math.hypot(x - cx, y - cy) < r + 1)) continue;
          out.push([m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
        }
      }
      return out;
    }""", edge)


@pytest.mark.slow
def test_planks_problems_and_a_stale_save(browser, shots: Path, tmp_path: Path) -> None:
    """Issue 30 items 8 and 13: every plank answers a click within its width (dotted
    and dashed ones too); a click on a problem selects the name it quotes; a save over
    a file changed on disk shows both texts and lets the author choose."""
    folder = tmp_path / "specs"
    folder.mkdir()
    shutil.copy(ORIGINAL, folder / "original.yaml")
    original = ORIGINAL.read_text()
    server = start(folder)
    try:
        page = open_page(browser, server)
        wait_analysed(page)
        colours = {e: page.get_attribute(f'#drawing svg .edge[data-edge="{e}"]', "data-colour")
                   for e in (1, 3)}
        assert colours == {1: "blue", 3: "green"}  # dashed and dotted
        for edge in (1, 3):
            points = _plank_points(page, edge)
            assert len(points) >= 20, len(points)
            missed = []
            for x, y in points:
                page.mouse.click(x, y)
                menu = page.evaluate("[document.getElementById('edge-menu').hidden, "
                                     "document.getElementById('edge-menu').dataset.edge]")
                if menu != [False, str(edge)]:
                    missed.append((round(x), round(y), menu))
                page.evaluate("document.getElementById('edge-menu').hidden = true")
            assert not missed, f"plank {edge}: {len(missed)} of {len(points)} missed: {missed}"
        page.mouse.click(*_plank_points(page, 3)[28])
        page.screenshot(path=shots / "8-plank-clicked.png")
        page.evaluate("document.getElementById('edge-menu').hidden = true")

        # a misspelt colour: the click selects it, not the start of its edge
        typo = original.replace("  - A E red", "  - A E rde", 1)
        page.evaluate(f"TrailkitEditor.replaceText(workshop.view, {json.dumps(typo)})")
        wait_analysed(page)
        problem = page.locator("#problems li.error").first
        assert "unknown colour 'rde'" in problem.inner_text()
        problem.click()
        selected = page.evaluate("(() => { const s = workshop.view.state.selection.main;"
                                 " return [s.from, s.to, workshop.view.state.sliceDoc("
                                 "s.from, s.to)]; })()")
        assert selected == [typo.index("rde"), typo.index("rde") + 3, "rde"], selected
        page.screenshot(path=shots / "8-problem-selected.png")
        page.keyboard.type("red")  # the selection is the name: typing replaces it
        wait_analysed(page)
        assert editor_text(page) == original

        # another program changes the file while the page has it open
        theirs = original.replace("(as found)", "(theirs)", 1)
        (folder / "original.yaml").write_text(theirs)
        page.click(".cm-content")
        page.keyboard.press("Control+End")
        page.keyboard.type("# mine\n")
        mine = editor_text(page)
        page.click("#save")
        page.wait_for_selector("#conflict:not([hidden])")
        assert page.get_attribute("body", "data-conflict") == "1"
        assert page.inner_text("#conflict-disk").rstrip("\n") == theirs.rstrip("\n")
        assert page.inner_text("#conflict-mine").rstrip("\n") == mine.rstrip("\n")
        assert (folder / "original.yaml").read_text() == theirs  # nothing overwritten
        page.screenshot(path=shots / "13-conflict.png")
        page.click("#conflict-keep")
        wait_until(page, "!document.body.dataset.conflict")
        assert (folder / "original.yaml").read_text() == mine
        assert (folder / ".original.yaml~").read_text() == theirs  # theirs is kept
        # and a save after that needs no choice: the page knows the version it wrote
        page.click(".cm-content")
        page.keyboard.type("# more\n")
        page.click("#save")
        wait_until(page, "document.getElementById('file-status').textContent"
                         ".endsWith('(saved)')")
        assert (folder / "original.yaml").read_text() == editor_text(page)
        errors = [e for e in page.errors if "409 (Conflict)" not in e]  # the refused save
        assert not page.outside and not errors, (page.outside, errors)

        # a page that goes away stops its run (a count that would take a minute)
        page.evaluate(f"TrailkitEditor.replaceText(workshop.view, {json.dumps(SLOW)})")
        wait_analysed(page)
        page.fill("#time-limit", "60")
        page.click("#count")
        with httpx.Client(base_url=server.base, timeout=30, headers={"origin": server.base},
                          cookies={"trailkit_workshop": server.token}) as c:
            wait_for(lambda: c.get("/api/info").json()["runs"]["running"] == 1, 30, "it runs")
            page.goto("about:blank")  # the page goes away (closed, or navigated off)
            wait_for(lambda: c.get("/api/info").json()["runs"]["running"] == 0, 30, "it stopped")
            workers = set(server.workers())
            assert workers <= set(c.get("/api/info").json()["analyses"]["pids"])
    finally:
        assert server.stop() == 0


RESTORED = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"


def _plank_edge(text: str, u: str, v: str) -> int:
    """The index of the plank between ``u`` and ``v`` (as ``data-edge`` numbers it)."""
    spec = load_spec_text(text)
    return next(e for e in range(spec.num_edges)
                if {spec.nodes[spec.tail[e]], spec.nodes[spec.head[e]]} == {u, v})


@pytest.mark.slow
def _smallest_text_px(page) -> float:
    """The height on screen, in CSS pixels, of the picture's smallest text."""
    return page.evaluate("Math.min(...[...document.querySelectorAll('#drawing svg text')]"
                         ".map(t => t.getScreenCTM().a * parseFloat(getComputedStyle(t)"
                         ".fontSize)))")


def test_inspect_and_design_from_the_page(browser, shots: Path, tmp_path: Path) -> None:
    """Issue 34 item 5: Inspect marks the planks the restored tyre puzzle cannot lose (AA-AB
    among them) and lays its measures beside the picture; the Design panel generates
    candidates with a seed, steps through them, and opens one in a new file of its own
    (issue 41: it once took the open file's place, so Save wrote it over that spec). Issue
    41 item 23: on a 1500 px screen the inspected picture is readable (its smallest text 11
    px at least; it was 5 px), and Prove offers the claims that apply and certifies the one
    chosen."""
    folder = tmp_path / "specs"
    folder.mkdir()
    shutil.copy(RESTORED, folder / "restored.yaml")
    restored = RESTORED.read_text()
    server = start(folder)
    try:
        page = open_page(browser, server, width=1500)
        wait_analysed(page)
        assert editor_text(page) == restored

        # Prove: "unsolvable" of a solvable puzzle moves the picker to a claim that applies
        assert page.locator("#prove-claim option").evaluate_all("os => os.map(o => o.value)") \
            == ["unsolvable", "shortest", "unique", "count", "fewest-changes"]
        page.click("#prove")
        page.wait_for_selector("body[data-answer='solved:prove']")
        assert "what can be proven of it instead: shortest" in page.inner_text("#answer-text")
        assert page.input_value("#prove-claim") == "shortest"
        page.click("#prove")
        wait_until(page, "document.getElementById('answer-text').textContent"
                         ".startsWith('shortest: 25 steps (layers certificate accepted')")

        page.click("#inspect")
        page.wait_for_selector("body[data-answer='solvable:inspect']")
        plank = _plank_edge(restored, "AA", "AB")
        assert page.locator(f'#drawing svg .inspect.critical[data-edge="{plank}"]').count() == 1
        assert page.locator("#drawing svg [data-inspect='critical']").count() == 20
        assert page.locator("#drawing svg [data-inspect='costly']").count() == 5
        assert page.locator(f'#inspect-found li.critical[data-edge="{plank}"]').inner_text() \
            == "AA–AB (green)"
        said = page.inner_text("#answer-text")
        assert f"edge {plank} (AA-AB, green): closed-set certificate accepted" in said, said
        measures = dict(zip(page.locator("#inspect-measures th").all_inner_texts(),
                            page.locator("#inspect-measures td").all_inner_texts(),
                            strict=True))
        assert measures["shortest walk (steps)"] == "25"
        assert measures["traps (reached, goal lost)"] == "1"
        assert page.inner_text("#inspect-head").startswith("20 critical planks (outlined), "
                                                           "5 costly planks (shaded)")
        assert page.get_attribute("body", "data-picture") == "readable"
        assert _smallest_text_px(page) >= 10.99
        page.screenshot(path=shots / "14-inspect.png")
        page.click("#picture-size")  # the whole picture in its frame, and back
        assert page.get_attribute("body", "data-picture") == "fit"
        assert _smallest_text_px(page) < 10  # (why the readable size is the first shown)
        page.click("#picture-size")
        assert page.get_attribute("body", "data-picture") == "readable"

        # the Design panel: three candidates with seed 7, step to the second, open it
        page.click("#design-toggle")
        page.select_option("#design-shape", "hex")
        page.fill("#design-rows", "4")
        page.fill("#design-cols", "5")
        page.fill("#design-min", "12")
        page.check("#design-unique")
        page.fill("#design-seed", "7")
        page.fill("#design-count", "3")
        page.click("#design-generate")
        page.wait_for_selector("body[data-answer='designed:design']")
        assert page.inner_text("#design-which") == "candidate 1 of 3"
        assert page.get_attribute("#design-prev", "disabled") is not None
        page.click("#design-next")
        assert page.inner_text("#design-which") == "candidate 2 of 3"
        assert page.get_attribute("body", "data-candidate") == "2"
        assert "the only one (seed 8)" in page.inner_text("#design-said")
        assert "certified: the shortest walk is unique" in page.inner_text("#answer-text")
        assert page.locator("#drawing svg .node").count() == 20  # the candidate's picture
        assert editor_text(page) == restored  # a preview only
        page.screenshot(path=shots / "15-design.png")
        # issue 41: the design gets a file of its own (the name asked, the next free one
        # offered), so Save writes it there, never over the spec it was made beside
        asked: list[str] = []

        def name_it(dialog) -> None:
            asked.append(dialog.default_value)
            dialog.accept(dialog.default_value)

        page.once("dialog", name_it)
        page.click("#design-open")
        wait_until(page, "workshop.name === 'restored-design-1.yaml'")
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('--seed 8')")
        wait_analysed(page)
        assert asked == ["restored-design-1.yaml"]
        opened = editor_text(page)
        spec = load_spec_text(opened)
        assert spec.kind == "colour-walk" and len(spec.nodes) == 20
        assert page.locator("#problems li.ok").count() == 1
        assert page.inner_text("#file-status") == "restored-design-1.yaml (saved)"
        assert (folder / "restored-design-1.yaml").read_text() == opened
        page.screenshot(path=shots / "16-design-opened.png")
        page.click(".cm-content")
        page.keyboard.press("Control+End")
        page.keyboard.type("# mine\n")
        page.click("#save")
        wait_until(page, "document.getElementById('file-status').textContent"
                         ".endsWith('(saved)')")
        assert (folder / "restored-design-1.yaml").read_text() == opened + "# mine\n"
        assert (folder / "restored.yaml").read_text() == restored  # the spec, as it was

        page.select_option("#files", "restored.yaml")
        wait_until(page, f"TrailkitEditor.text(workshop.view) === {json.dumps(restored)}")
        wait_analysed(page)
        assert page.locator("#drawing svg .node").count() == 38

        # a bad value (the form's own checks cannot know): the command line's message
        page.fill("#design-colours", "red, red")
        page.click("#design-generate")
        page.wait_for_selector("body[data-answer='error']")
        assert page.inner_text("#design-status").startswith(
            "--colours: give two or more different colours")
        assert page.locator("#design-found").is_hidden()  # no candidate of another ask
        page.screenshot(path=shots / "17-design-refused.png")
        errors = [e for e in page.errors if "400 (Bad Request)" not in e]
        assert not page.outside and not errors, (page.outside, errors)

        # a design that would run for a minute stops when its page goes away
        page.fill("#design-colours", "red,blue,green")
        page.fill("#design-rows", "6")
        page.fill("#design-cols", "7")
        page.fill("#design-min", "100")
        page.check("#design-robust")
        page.fill("#time-limit", "60")
        page.click("#design-generate")
        with httpx.Client(base_url=server.base, timeout=30, headers={"origin": server.base},
                          cookies={"trailkit_workshop": server.token}) as c:
            wait_for(lambda: c.get("/api/info").json()["runs"]["running"] == 1, 30, "it runs")
            page.goto("about:blank")
            wait_for(lambda: c.get("/api/info").json()["runs"]["running"] == 0, 30, "it stopped")
    finally:
        assert server.stop() == 0


def _board_givens(text: str) -> tuple[dict[str, int], list[str]]:
    spec = load_spec_text(text)
    return ({spec.nodes[v]: k for v, k in spec.at.items()},
            sorted(spec.nodes[v] for v in spec.avoid))


def test_click_cells_solve_step_and_design_a_tour(browser, shots: Path,
                                                  tmp_path: Path) -> None:
    folder = tmp_path / "specs"
    folder.mkdir()
    text = NUMBRIX.read_text().replace("kind: tour\n", "# a comment kept\nkind: tour\n")
    (folder / "numbrix.yaml").write_text(text)
    server = start(folder)
    try:
        page = open_page(browser, server)
        wait_analysed(page)
        assert page.locator("#drawing svg g.cell").count() == 25
        assert page.locator("#board-tools").is_visible()
        assert page.locator("#graph-hint").is_hidden()  # (drag a node: no nodes here)

        # a click on an empty cell gives it the lowest free number; on a given, clears it
        page.click('#drawing svg g.cell[data-node="b1"]')
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('b1: 2')")
        wait_analysed(page)
        page.fill("#given-number", "5")
        page.click('#drawing svg g.cell[data-node="c1"]')
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('c1: 5')")
        wait_analysed(page)
        page.click('#drawing svg g.cell[data-node="a3"]')  # on its number: the cell's
        wait_until(page, "!TrailkitEditor.text(workshop.view).includes('a3: 3')")
        wait_analysed(page)
        # a hole, and the given of a cell made a hole goes with it
        page.select_option("#cell-mode", "hole")
        page.click('#drawing svg g.cell[data-node="c1"]')
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('avoid: [c1]')")
        wait_analysed(page)
        # 24 cells left: the given 25 is past the end, located; a click on it mends it
        assert "at.e5 is position 25" in page.inner_text("#problems")
        page.select_option("#cell-mode", "given")
        page.click('#drawing svg g.cell[data-node="e5"]')
        wait_until(page, "!TrailkitEditor.text(workshop.view).includes('e5: 25')")
        wait_analysed(page)
        assert page.locator("#problems li.ok").count() == 1
        edited = editor_text(page)
        assert _board_givens(edited) == ({"a1": 1, "b1": 2, "e1": 9, "c3": 13, "a5": 17},
                                   ["c1"])
        assert "# a comment kept\nkind: tour\n" in edited
        assert page.locator('#drawing svg g.cell.hole[data-node="c1"]').count() == 1
        page.screenshot(path=shots / "20-board-edited.png")
        # each cell edit is one step of undo: five give the spec back as it was
        page.click("#picture", position={"x": 4, "y": 4})
        for _ in range(5):
            page.keyboard.press("Control+z")
        wait_until(page, f"TrailkitEditor.text(workshop.view) === {json.dumps(text)}")
        wait_analysed(page)

        # Solve: every cell gets its position, the givens bold; Next reveals them
        page.click("#solve")
        page.wait_for_selector("body[data-answer='solved:solve']")
        assert page.locator("#drawing svg text.position").count() == 25
        assert page.locator("#drawing svg text.position[data-given='yes']").count() == 6
        assert page.locator("#steps li").count() == 24
        page.click("#next")
        assert page.get_attribute("body", "data-step") == "1"
        # positions 1 and 2, and the givens 3, 9, 13, 17, 25
        assert page.get_attribute("body", "data-positions") == "7"
        assert page.locator("#drawing svg g.cell.current").count() == 1
        for _ in range(4):
            page.click("#next")
        assert page.get_attribute("body", "data-positions") == "10"  # 1..6, 9, 13, 17, 25
        page.screenshot(path=shots / "21-board-solved.png")
        page.click("#whole")
        assert page.get_attribute("body", "data-positions") == "25"

        # Inspect answers in the command's words (a refusal too), the board kept
        page.click("#inspect")
        wait_until(page, "document.body.dataset.answer.endsWith(':inspect')")
        said = page.inner_text("#answer-text")
        assert said and not said.startswith(("UnsupportedPuzzle", "TrailkitError")), said
        assert page.locator("#drawing svg g.cell").count() == 25

        # Design: a tour on a 4x4 king board, shown on its board with its givens (a time
        # limit for a machine shared with others: the run answers as soon as it is done)
        page.click("#design-toggle")
        page.select_option("#design-kind", "tour")
        assert page.locator("#design-shape").is_hidden()
        assert page.locator("#design-moves option").all_inner_texts() == list(TOUR_MOVES)
        page.fill("#design-board-cols", "4")
        page.fill("#design-board-rows", "4")
        page.fill("#time-limit", "90")
        page.select_option("#design-moves", "king")
        page.fill("#design-seed", "4")
        page.fill("#design-count", "2")
        page.click("#design-generate")
        page.wait_for_selector("body[data-answer='designed:design']", timeout=90_000)
        assert page.inner_text("#design-which") == "candidate 1 of 2"
        assert page.locator("#drawing svg g.cell").count() == 16
        givens = page.locator("#drawing svg text.position[data-given='yes']").count()
        assert givens >= 2
        assert page.inner_text("#design-said") == f"{givens} givens of 16 cells, one " \
                                                  "solution (seed 4)"
        assert page.locator("#board-tools").is_hidden()  # a preview is not edited
        page.screenshot(path=shots / "22-board-design.png")
        assert editor_text(page) == text  # a preview only
        assert not page.outside and not page.errors, (page.outside, page.errors)
    finally:
        assert server.stop() == 0


def _cell_shows(page, cell: str) -> str:
    return page.evaluate(f"""(() => {{ const t = document.querySelector(
        '#drawing svg text.position[data-node="{cell}"]'); return t ? t.textContent : ""; }})()""")


def test_board_status_agrees_with_the_cells_and_the_steps_stay_in_their_column(
        browser, shots: Path, tmp_path: Path) -> None:
    """On a board (issue 44): the status line says what the cells now show after an edit,
    an undo and a redo (it once said "its given 25 cleared" while e5 still showed 25);
    the list of a tour's steps wraps and scrolls inside its column at 1280 x 800 and at
    1500 px, never past it."""
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "numbrix.yaml").write_text(NUMBRIX.read_text())
    server = start(folder)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']")
        wait_analysed(page)
        said = lambda: page.inner_text("#board-said")  # noqa: E731
        assert _cell_shows(page, "e5") == "25"
        page.click('#drawing svg g.cell[data-node="e5"]')
        wait_until(page, "!TrailkitEditor.text(workshop.view).includes('e5: 25')")
        wait_analysed(page)
        assert _cell_shows(page, "e5") == "" and said() == "e5: its given 25 cleared"
        page.click("#undo")
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('e5: 25')")
        wait_analysed(page)
        assert _cell_shows(page, "e5") == "25" and said() == "e5: given 25"
        page.click("#redo")
        wait_until(page, "!TrailkitEditor.text(workshop.view).includes('e5: 25')")
        wait_analysed(page)
        assert _cell_shows(page, "e5") == "" and said() == "e5: its given 25 cleared"
        page.click("#undo")
        wait_until(page, "TrailkitEditor.text(workshop.view).includes('e5: 25')")
        wait_analysed(page)

        page.click("#solve")
        page.wait_for_selector("body[data-answer='solved:solve']")
        fits = """(() => { const s = document.getElementById('steps');
            const r = s.getBoundingClientRect(), a = document.getElementById('answer')
              .getBoundingClientRect();
            return s.scrollWidth <= s.clientWidth && r.right <= a.right + 0.5; })()"""
        for width, height in ((1280, 800), (1500, 900)):
            page.set_viewport_size({"width": width, "height": height})
            assert page.locator("#steps li").count() == 24
            assert page.evaluate(fits), width
            for _ in range(20):
                page.click("#next")
            current = page.locator("#steps li.current")
            assert current.count() == 1 and current.is_visible()
            box, frame = current.bounding_box(), page.locator("#steps").bounding_box()
            assert box and frame and frame["y"] - 1 <= box["y"] and \
                box["y"] + box["height"] <= frame["y"] + frame["height"] + 1
            page.screenshot(path=shots / f"23-board-steps-{width}.png")
            page.click("#whole")
        assert not errors, errors
    finally:
        assert server.stop() == 0


@pytest.mark.long  # compiles the tour kernels from nothing (half a minute of CPU)
def test_the_first_tour_design_waits_for_the_compile_not_its_limit(
        browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With Numba's cache empty (the first run after installing), the tour search
    compiles for longer than the panel's 10 s: the server compiles it in the background
    from its start, and a tour design asked meanwhile says "compiling (once)" and gets
    its whole limit after it (it once answered "not found")."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "jit"))  # nothing compiled yet
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "numbrix.yaml").write_text(NUMBRIX.read_text())
    server = start(folder)
    try:
        page = open_page(browser, server)
        wait_analysed(page)
        page.click("#design-toggle")
        page.select_option("#design-kind", "tour")
        page.fill("#design-board-cols", "5")
        page.fill("#design-board-rows", "5")
        page.fill("#time-limit", "10")
        page.select_option("#design-moves", "king")
        page.fill("#design-seed", "2")
        page.click("#design-generate")
        wait_until(page, "document.getElementById('design-status').textContent"
                         ".startsWith('compiling (once)')"
                         " || document.body.dataset.answer.endsWith(':design')", 60)
        said = page.inner_text("#design-status")
        assert said.startswith("compiling (once)"), said
        page.wait_for_selector("body[data-answer='designed:design']", timeout=240_000)
        assert page.locator("#drawing svg g.cell").count() == 25
        assert not page.outside and not page.errors, (page.outside, page.errors)
    finally:
        assert server.stop() == 0
