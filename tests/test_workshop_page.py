"""The workshop's page in a real browser (headless Debian chromium, driven by Playwright):
type a puzzle and see it drawn, see a typo located with "did you mean", solve with every
backend and step through the walk, repair the tyre puzzle and undo it, edit on the
picture (join two tyres, drag one, recolour a plank) and save. A screenshot is taken at
each stage (into ``$TRAILKIT_WORKSHOP_SHOTS`` when set: the docs' pictures come from
there). No request may leave the machine."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import CHROMIUM_ARGS, find_chromium
from workshop_server import Served, start

from trailkit.models.spec import load_spec_text
from trailkit.solvers.registry import backend_names

# A browser driven against the clock of a page: on a machine of its own (the README's
# test command runs these after the parallel part; issue 30).
pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "specs" / "tyre-puzzle" / "original.yaml"
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


def open_page(browser, server: Served):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    outside: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: r.url.startswith(server.base) or outside.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")
    page.outside, page.errors = outside, errors
    return page


def wait_until(page, expression: str, timeout_s: float = 20.0) -> None:
    """Wait until ``expression`` is true in the page. (Playwright's wait_for_function
    evaluates a string with eval, which the page's Content-Security-Policy forbids, as
    it should; page.evaluate goes through the debugger protocol, which the policy does
    not govern.) Polls for the sign, never a fixed wait."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {expression}"
        page.wait_for_timeout(15)


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
        # drag tyre T to the right, by about half a neighbour distance
        box = page.locator('#drawing svg .node[data-node="T"] circle.tyre').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        for k in range(1, 6):
            page.mouse.move(x + 8 * k, y)
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
