"""Benchmark: the workshop (``trailkit serve``), against the issue's budgets.

Run on demand: ``python tests/bench/bench_workshop.py [--repeat 30]``.

* a keystroke on the tyre puzzle (as found) to the located error and to the redrawn
  picture: the server's time (``analyse`` in process, and one ``/api/analyse`` request
  over loopback), and in the browser (headless chromium: from the key to what the page
  shows, measured by the page itself); budget 150 ms;
* solving the restored tyre puzzle from the page (a worker forked, solved, drawn,
  answered); budget 0.5 s;
* the page's first load (until the editor and the picture are there) and its bytes;
  budget 300 ms and 1 MB;
* the ASGI stack that was chosen: import time and request latency of Starlette and
  FastAPI under uvicorn, side by side (FastAPI only when installed).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from workshop_server import start  # noqa: E402 - the tests' way of starting the server

ORIGINAL = ROOT / "specs" / "tyre-puzzle" / "original.yaml"
RESTORED = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def ms(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:7.1f} ms, "
            f"max {max(values) * 1000:7.1f} ms (n={len(values)})")


def server_side(repeat: int) -> None:
    from trailkit.solvers.frontends.workshop.analysis import analyse

    text = ORIGINAL.read_text()
    typo = text.replace("  - AK AL red", "  - AK AL redx")
    for label, t in (("redrawn picture", text), ("located error  ", typo)):
        analyse(t)
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            out = analyse(t)
            times.append(time.perf_counter() - started)
        assert (out["svg"] is None) == (t is typo)
        print(f"server, in process, {label}: {ms(times)}")


def over_http(served, repeat: int) -> None:
    import httpx

    text = ORIGINAL.read_text()
    with httpx.Client(base_url=served.base, cookies={"trailkit_workshop": served.token},
                      headers={"origin": served.base}, timeout=60) as c:
        times = []
        for i in range(repeat):
            started = time.perf_counter()
            r = c.post("/api/analyse", json={"text": text + f"# {i}\n"})
            times.append(time.perf_counter() - started)
            assert r.status_code == 200 and r.json()["svg"]
        print(f"server, /api/analyse over loopback: {ms(times)}")
        body = {"op": "solve", "text": RESTORED.read_text(), "slot": "bench"}
        times = []
        for _ in range(max(5, repeat // 3)):
            started = time.perf_counter()
            out = c.post("/api/run", json=body).json()
            times.append(time.perf_counter() - started)
            assert out["status"] == "solved"
        print(f"solve the restored tyre puzzle, /api/run: {ms(times)}")


def in_browser(served, repeat: int) -> None:
    from playwright.sync_api import sync_playwright

    def until(page, expression: str) -> None:
        while not page.evaluate(expression):
            page.wait_for_timeout(5)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        loads, sizes, wall = [], [], []
        for _ in range(max(3, repeat // 5)):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            got: list[int] = []
            page.on("response", lambda r, got=got: got.append(len(r.body() or b"")
                                                               if r.status == 200 else 0))
            started = time.perf_counter()
            page.goto(served.url)
            until(page, "document.body.dataset.ready === '1' && "
                        "!!document.querySelector('#drawing svg')")
            wall.append(time.perf_counter() - started)
            # from the navigation's start (the token's redirect included) to the editor
            # and the picture on screen, as the page measured it
            loads.append(float(page.get_attribute("body", "data-ready-ms")) / 1000)
            sizes.append(sum(got))
            page.close()
        print(f"first load (page, editor, info, the tyre puzzle drawn): {ms(loads)}, "
              f"{max(sizes) / 1e6:.2f} MB; with a new tab's own start-up: {ms(wall)}")
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(served.url)
        until(page, "document.body.dataset.ready === '1' && workshop.shown > 0")
        for label, key in (("located error", "x"), ("redrawn picture", "Backspace")):
            times = []
            for _ in range(repeat):
                page.click(".cm-content")
                page.evaluate("TrailkitEditor.goTo(workshop.view, 153, 14)")  # after "- AK AL red"
                shown = page.evaluate("workshop.shown")
                page.keyboard.press(key) if len(key) > 1 else page.keyboard.type(key)
                until(page, f"workshop.shown > {shown} && workshop.timer === null && "
                            "!workshop.inFlight && !workshop.pending")
                times.append(page.evaluate("workshop.latencyMs") / 1000)
                if key == "x":
                    assert page.locator("#problems li.error").count() >= 1
                    page.keyboard.press("Backspace")
                    until(page, "document.querySelector('#problems li.ok') !== null")
            print(f"browser, keystroke to the {label}: {ms(times)}")
        page.click("#solve")
        times = []
        for _ in range(max(5, repeat // 3)):
            page.evaluate("document.body.dataset.answer = ''")
            started = time.perf_counter()
            page.click("#solve")
            until(page, "document.body.dataset.answer === 'unsolvable:solve'")
            times.append(time.perf_counter() - started)
        print(f"browser, Solve on the tyre puzzle as found (unsolvable, certified): "
              f"{ms(times)}")
        browser.close()


_STACK = """
import sys, time, threading, statistics, socket
t = time.perf_counter()
if sys.argv[1] == "starlette":
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    async def ep(request):
        return JSONResponse({"n": len((await request.json())["text"])})
    app = Starlette(routes=[Route("/x", ep, methods=["POST"])])
else:
    from fastapi import FastAPI
    from pydantic import BaseModel
    app = FastAPI()
    class Body(BaseModel):
        text: str
    @app.post("/x")
    async def ep(body: Body):
        return {"n": len(body.text)}
imported = time.perf_counter() - t
import httpx, uvicorn
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
threading.Thread(target=server.run, daemon=True).start()
while not server.started:
    time.sleep(0.01)
text = open(sys.argv[2]).read()
with httpx.Client() as c:
    times = []
    for i in range(300):
        t = time.perf_counter()
        c.post(f"http://127.0.0.1:{port}/x", json={"text": text})
        times.append(time.perf_counter() - t)
print(f"{imported * 1000:.0f} {statistics.median(times[50:]) * 1e6:.0f}")
server.should_exit = True
"""


def stack() -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(_STACK)
    for name in ("starlette", "fastapi"):
        done = subprocess.run([sys.executable, handle.name, name, str(ORIGINAL)],
                              capture_output=True, text=True)
        if done.returncode:
            print(f"stack {name}: not measured ({done.stderr.strip().splitlines()[-1]})")
            continue
        imported, latency = done.stdout.split()
        print(f"stack {name:9}: import {imported} ms, request latency median {latency} us")
    Path(handle.name).unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    server_side(args.repeat)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "original.yaml").write_text(ORIGINAL.read_text())
        served = start(Path(folder))
        try:
            over_http(served, args.repeat)
            in_browser(served, args.repeat)
        finally:
            served.stop()
    stack()


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    main()
