"""PNG and HTML outputs: the PNG decodes at the picture's size, and the HTML page works
in a real browser (headless Debian chromium, driven by Playwright) opened from a file:
the page's own buttons step through the walk and the current plank is highlighted."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest
from chromium import CHROMIUM_ARGS, find_chromium

from trailkit.models.spec import load_spec
from trailkit.solvers.frontends.cli import main
from trailkit.solvers.pipeline import solve
from trailkit.solvers.tools.drawing import draw_svg, html_page, render_png

ROOT = Path(__file__).resolve().parents[4]
RESTORED = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, after checking its signature and decompressing its
    image data (a truncated or corrupt file raises)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", (0, 0)
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", chunk[:8])
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    assert len(raw) == size[1] * (1 + size[0] * 4)  # RGBA rows with a filter byte each
    return size


def test_png_has_the_pictures_size(tmp_path: Path) -> None:
    pytest.importorskip("resvg_py")
    out = tmp_path / "walk.png"
    assert main(["draw", str(RESTORED), "--solve", "--out", str(out)]) == 0
    puzzle = load_spec(RESTORED)
    svg = draw_svg(puzzle, solve(puzzle))
    w, h = (float(x) for x in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups())
    assert png_size(out.read_bytes()) == (round(w * 1.5), round(h * 1.5))
    assert png_size(render_png(svg, scale=1.0)) == (round(w), round(h))


def test_png_without_resvg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_resvg(name: str, *args, **kwargs):
        if name == "resvg_py":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_resvg)
    with pytest.raises(Exception, match=r"trailkit\[draw\]"):
        render_png("<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2'/>")


def test_html_page_is_self_contained(tmp_path: Path) -> None:
    out = tmp_path / "walk.html"
    assert main(["draw", str(RESTORED), "--solve", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "@import" not in page and "url(" not in page
    assert page.count("<li data-step=") == 25


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    executable = find_chromium()
    if executable is None:
        pytest.skip("no chromium found on PATH (Debian: apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS,
                                     headless=True)
        yield browser
        browser.close()


@pytest.mark.alone
def test_html_page_steps_through_the_walk_in_a_browser(browser, tmp_path: Path) -> None:
    puzzle = load_spec(RESTORED)
    answer = solve(puzzle)
    page_file = tmp_path / "walk.html"
    page_file.write_text(html_page(puzzle, draw_svg(puzzle, answer), answer),
                         encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda req: requests.append(req.url))
    page.goto(page_file.as_uri())
    assert "25 steps" in page.text_content("#status")

    def current() -> tuple[str, str, str, str]:
        return (page.eval_on_selector(".step.current", "e => e.dataset.step"),
                page.eval_on_selector(".edge.current", "e => e.dataset.edge"),
                page.eval_on_selector("#steps li.current", "e => e.dataset.step"),
                page.text_content("#status"))

    names = puzzle.nodes
    for k in range(1, 4):
        page.click("#next")
        step, edge, item, status = current()
        assert step == item == str(k)
        assert int(edge) == answer.walk.edges[k - 1]
        assert f"{names[answer.walk.nodes[k - 1]]} → {names[answer.walk.nodes[k]]}" in status
    later = page.eval_on_selector_all(".step.later", "els => els.map(e => e.dataset.step)")
    assert sorted(map(int, later)) == list(range(4, 26))
    page.click("#prev")
    assert current()[0] == "2"
    page.screenshot(path=str(tmp_path / "step2.png"), full_page=True)

    page.evaluate("document.body.dataset.interval = '40'")
    page.click("#play")
    page.wait_for_function("document.body.dataset.step === '25'", timeout=10_000)
    assert page.is_disabled("#next") and page.is_disabled("#pause")
    page.click("#prev")
    page.evaluate("document.body.dataset.interval = '60000'")  # slow: pause comes first
    page.click("#play")
    assert page.is_enabled("#pause") and page.is_disabled("#play")
    page.click("#pause")
    assert page.is_enabled("#play")
    shot = page.screenshot(full_page=True)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 10_000
    assert not errors
    assert all(url.startswith("file:") for url in requests)  # nothing from the network
    context.close()


@pytest.mark.alone
def test_html_page_of_a_puzzle_without_walk_in_a_browser(browser, tmp_path: Path) -> None:
    out = tmp_path / "ring.html"
    assert main(["draw", str(ROOT / "specs" / "dominoes" / "triangle.yaml"), "--solve",
                 "--out", str(out)]) == 0
    page = browser.new_page()
    page.goto(out.as_uri())
    page.click("#next")
    assert page.eval_on_selector(".step.current", "e => e.dataset.step") == "1"
    assert page.eval_on_selector_all(".domino.current", "els => els.length") == 1
    page.close()
    out = tmp_path / "plain.html"
    assert main(["draw", str(ROOT / "specs" / "nikolaus.yaml"), "--out", str(out)]) == 0
    page = browser.new_page()
    page.goto(out.as_uri())
    assert page.text_content("#status") == "No walk to step through"
    assert page.is_disabled("#play") and page.is_disabled("#next")
    page.close()


@pytest.mark.alone
def test_html_page_counts_a_one_step_walk_in_words(browser, tmp_path: Path) -> None:
    from trailkit.models.spec import load_spec_text

    puzzle = load_spec_text("trailkit: 1\nkind: trail\nedges: [a b]\nstart: a\n")
    out = tmp_path / "one.html"
    out.write_text(html_page(puzzle, draw_svg(puzzle, solve(puzzle)), solve(puzzle)),
                   encoding="utf-8")
    page = browser.new_page()
    page.goto(out.as_uri())
    assert page.text_content("#status") == "The whole walk: 1 step"
    page.close()
    out = tmp_path / "ring.html"
    assert main(["draw", str(ROOT / "specs" / "dominoes" / "triangle.yaml"), "--solve",
                 "--out", str(out)]) == 0
    page = browser.new_page()
    page.goto(out.as_uri())
    assert page.text_content("#status") == "The whole chain: 3 dominoes"
    page.close()


#: Node names that once ended the page's data block early: "<!--<script>" makes the HTML
#: parser read on past the block's own "</script>", swallowing the page's script.
HOSTILE = """trailkit: 1
name: "</script><script>window.pwned = 1</script> <!--<script>"
kind: trail
edges: ["<!--<script> b", "b </script><script>window.pwned=1</script>",
        "</script><script>window.pwned=1</script> a&amp;<!--"]
"""


@pytest.mark.alone
def test_no_name_in_a_spec_can_end_the_pages_script(browser, tmp_path: Path) -> None:
    """Issue 41 item 5: whatever the names say, the data stays data (``<``, ``>`` and
    ``&`` escaped inside ``<script>``), the page's own script runs and its controls
    step through the walk, and no script of the spec's runs."""
    spec = tmp_path / "hostile.yaml"
    spec.write_text(HOSTILE, encoding="utf-8")
    out = tmp_path / "x.html"
    assert main(["draw", str(spec), "--solve", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    block = text.split('<script type="application/json" id="steps-data">', 1)[1]
    assert "<" not in block.split("</script>", 1)[0]
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(out.as_uri())
    assert page.evaluate("document.scripts.length") == 2
    assert page.text_content("#status") == "The whole walk: 3 steps"
    page.click("#next")
    assert page.eval_on_selector(".step.current", "e => e.dataset.step") == "1"
    said = page.text_content("#status")
    assert "<!--<script>" in said or "</script><script>window.pwned=1</script>" in said, said
    page.click("#next")
    page.click("#next")
    assert page.eval_on_selector("#steps li.current", "e => e.dataset.step") == "3"
    assert page.is_disabled("#next")
    steps = page.eval_on_selector_all("#steps li", "els => els.map(e => e.textContent)")
    assert any("a&amp;<!--" in s for s in steps), steps
    assert page.evaluate("window.pwned") is None and not errors, errors
    page.close()
