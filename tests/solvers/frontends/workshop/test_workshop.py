"""The workshop (``trailkit serve``) over HTTP: its safety rules, its runs under load and
on Ctrl-C, and the library pieces under it (edits written into the YAML, the folder's
containment). The page itself is tested in a browser in ``test_workshop_page.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from workshop_server import Served, start

from trailkit.models.errors import TrailkitError
from trailkit.models.spec import load_spec_text
from trailkit.solvers.frontends.workshop.edits import edit_text
from trailkit.solvers.frontends.workshop.folder import SpecFolder

ROOT = Path(__file__).resolve().parents[4]
ORIGINAL = ROOT / "specs" / "tyre-puzzle" / "original.yaml"
RESTORED = ROOT / "specs" / "tyre-puzzle" / "restored.yaml"
NIKOLAUS = ROOT / "specs" / "nikolaus.yaml"
#: Counting the longest walks of this 60-edge graph takes far longer than any test (a
#: count with a time limit stops at it and says unknown).
SLOW = ("trailkit: 1\nkind: walk\nuse: at-most-once\nobjective: longest\nedges: ["
        + (
            "0 2, 0 4, 0 8, 0 19, 0 23, 1 3, 1 9, 1 17, 1 19, 2 11, 2 13, 2 15, 2 18, 2 21, "
            "3 9, 3 13, 3 18, 3 19, 4 7, 4 8, 4 11, 4 15, 4 17, 4 20, 5 18, 5 22, 6 8, 6 13, "
            "6 20, 6 22, 7 16, 7 17, 7 18, 8 15, 8 17, 8 18, 9 13, 9 19, 9 20, 10 18, 10 21, "
            "10 22, 11 17, 11 19, 12 16, 12 18, 12 20, 12 22, 12 23, 13 16, 13 18, 13 21, "
            "13 22, 14 18, 15 17, 15 19, 15 20, 17 18, 19 21, 20 22") + "]\n")

httpx = pytest.importorskip("httpx")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("specs")
    shutil.copy(ORIGINAL, root / "original.yaml")
    shutil.copy(NIKOLAUS, root / "nikolaus.yaml")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.yaml").write_text("trailkit: 1\nsecret: yes\n")
    (root / "escape.yaml").symlink_to(outside / "secret.yaml")
    (root / "away").symlink_to(outside, target_is_directory=True)
    return root


@pytest.fixture(scope="module")
def served(folder: Path) -> Iterator[Served]:
    server = start(folder)
    yield server
    assert server.stop() == 0


def client(server: Served, *, token: bool = True) -> httpx.Client:
    cookies = {"trailkit_workshop": server.token} if token else {}
    return httpx.Client(base_url=server.base, cookies=cookies, timeout=60,
                        headers={"origin": server.base})


# ------------------------------------------------------------------ safety rules
def test_the_first_line_is_the_url_on_loopback(served: Served) -> None:
    assert served.url.startswith("http://127.0.0.1:") and "/?token=" in served.url


def test_the_token_in_the_url_becomes_a_strict_httponly_cookie(served: Served) -> None:
    with httpx.Client(base_url=served.base) as c:
        first = c.get(f"/?token={served.token}")
        assert first.status_code == 303 and first.headers["location"] == "/"
        cookie = first.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        page = c.get("/")  # the cookie now does
        assert page.status_code == 200 and "trailkit workshop" in page.text


def test_a_missing_or_wrong_token_is_refused(served: Served) -> None:
    with client(served, token=False) as c:
        assert c.get("/").status_code == 403
        assert c.get("/api/info").status_code == 403
        assert c.get("/?token=wrong").status_code == 403
        c.cookies.set("trailkit_workshop", "wrong")
        assert c.get("/api/info").status_code == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1",
                                  "127.0.0.2:{port}", "localhost.evil.example:{port}"])
def test_a_wrong_host_is_refused(served: Served, host: str) -> None:
    port = served.host.rsplit(":", 1)[1]
    with client(served) as c:
        r = c.get("/api/info", headers={"host": host.format(port=port)})
        assert r.status_code == 403 and "Host" in r.text
        assert c.get("/api/info", headers={"host": f"localhost:{port}"}).status_code == 200


def test_a_cross_origin_write_is_refused(served: Served) -> None:
    body = {"text": NIKOLAUS.read_text()}
    with client(served) as c:
        for origin in ("http://evil.example", "null", f"http://localhost:1{served.host[-4:]}"):
            r = c.post("/api/analyse", json=body, headers={"origin": origin})
            assert r.status_code == 403, origin
        r = c.post("/api/analyse", json=body, headers={"origin": served.base,
                                                        "sec-fetch-site": "cross-site"})
        assert r.status_code == 403
        assert c.post("/api/analyse", json=body).status_code == 200


def test_a_request_without_origin_cannot_write(served: Served) -> None:
    with httpx.Client(base_url=served.base, cookies={"trailkit_workshop": served.token}) as c:
        assert c.post("/api/save", json={"name": "x.yaml", "text": "a"}).status_code == 403


def test_bodies_are_capped_and_big_specs_refused_with_a_message(served: Served) -> None:
    with client(served) as c:
        big = {"text": "# " + "x" * 2_000_000}
        assert c.post("/api/analyse", json=big).status_code == 413
        # a false Content-Length does not get past: the body is counted as it comes
        chunks = (b'{"text": "' + b"x" * 100_000 for _ in range(25))
        r = c.post("/api/analyse", content=chunks,
                   headers={"content-type": "application/json"})
        assert r.status_code == 413
        over = {"text": "# " + "x" * 1_100_000}
        r = c.post("/api/analyse", json=over)
        assert r.status_code == 413 and "larger than 1 MB" in r.json()["error"]


def test_every_answer_carries_the_content_security_policy(served: Served) -> None:
    with client(served) as c:
        for path in ("/", "/static/app.js", "/api/info"):
            policy = c.get(path).headers["content-security-policy"]
            assert "script-src 'self'" in policy and "default-src 'none'" in policy
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        page = c.get("/").text
        # the page's start data is a JSON block (never run); outside it, no inline
        # script and nothing fetched from elsewhere
        head, data, rest = re.split(r'<script type="application/json" id="start-info">'
                                    r'(.*?)</script>', page, flags=re.S)
        assert json.loads(data)["open"]["analysis"] and "</" not in data
        assert "<script>" not in head + rest and "http" not in rest


def test_a_spec_cannot_close_the_pages_data_block(tmp_path: Path) -> None:
    """The first spec comes inside the page: its text cannot end the JSON block and
    start markup of its own."""
    hostile = "# </script><script>alert(1)</script><!--\n" + NIKOLAUS.read_text()
    (tmp_path / "a.yaml").write_text(hostile)
    server = start(tmp_path)
    try:
        with client(server) as c:
            page = c.get("/").text
    finally:
        assert server.stop() == 0
    assert page.count("</script>") == page.count("<script")
    data = re.search(r'id="start-info">(.*?)</script>', page, flags=re.S)
    assert data and json.loads(data.group(1))["open"]["text"] == hostile


@pytest.mark.parametrize("name", ["../original.yaml", "/etc/passwd.yaml", "escape.yaml",
                                  "away/secret.yaml", "a/../../x.yaml", ".hidden.yaml",
                                  "nikolaus.txt", "..%2Fx.yaml"])
def test_nothing_outside_the_folder_is_read_or_written(served: Served, folder: Path,
                                                       name: str) -> None:
    with client(served) as c:
        r = c.get("/api/file", params={"name": name})
        assert r.status_code == 400, name
        assert "secret: yes" not in r.text
        for route in ("/api/save", "/api/create"):
            r = c.post(route, json={"name": name, "text": "trailkit: 1\n"})
            assert r.status_code == 400, (route, name)
    assert (folder.parent / "original.yaml").exists() is False
    assert "secret" in (folder / "escape.yaml").resolve().read_text()  # untouched


def test_the_folder_lists_opens_saves_and_creates(served: Served, folder: Path) -> None:
    with client(served) as c:
        info = c.get("/api/info").json()
        assert info["files"] == ["nikolaus.yaml", "original.yaml"]  # no symlink out
        assert set(info["backends"]) >= {"direct", "cpsat", "sat"}
        text = c.get("/api/file", params={"name": "nikolaus.yaml"}).json()["text"]
        assert text == NIKOLAUS.read_text()
        r = c.post("/api/create", json={"name": "new/one.yaml", "text": "trailkit: 1\n"})
        assert r.status_code == 200 and "new/one.yaml" in r.json()["files"]
        again = c.post("/api/create", json={"name": "new/one.yaml", "text": "x"})
        assert again.status_code == 400 and "already exists" in again.json()["error"]
        assert c.post("/api/save", json={"name": "new/one.yaml", "base": r.json()["version"],
                                         "text": "trailkit: 1\n# saved\n"}).status_code == 200
    assert (folder / "new" / "one.yaml").read_text() == "trailkit: 1\n# saved\n"
    assert not [p for p in (folder / "new").iterdir() if p.name.endswith(".tmp")]


# ------------------------------------------------- nothing lost, nobody sent away
@pytest.mark.parametrize("path", ["//evil.example/", "///evil.example/x", "/\\evil.example/",
                                  "/%5Cevil.example/", "/%2F%2Fevil.example/",
                                  "/%09/evil.example/", "/./evil.example"])
def test_the_token_redirect_stays_on_this_server(served: Served, path: str) -> None:
    import http.client
    from urllib.parse import urljoin, urlsplit

    host, port = served.host.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.putrequest("GET", f"{path}?token={served.token}&x=1", skip_host=True)
        conn.putheader("Host", served.host)
        conn.endheaders()
        answer = conn.getresponse()
        location = answer.getheader("location") or ""
    finally:
        conn.close()
    assert answer.status == 303, (path, answer.status)
    assert location.startswith("/") and location[1:2] not in ("/", "\\"), location
    target = urlsplit(urljoin(served.base + "/somewhere/deep", location))
    assert target.netloc == served.host and target.query == "x=1", location


def _probes(folder: Path) -> Path:
    probes = folder / "probes"
    probes.mkdir(exist_ok=True)
    return probes


def test_a_save_over_a_newer_file_is_refused_with_both_texts(served: Served,
                                                            folder: Path) -> None:
    spec = _probes(folder) / "stale.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b]\n")
    with client(served) as c:
        opened = c.get("/api/file", params={"name": "probes/stale.yaml"}).json()
        theirs = "trailkit: 1\nkind: trail\nedges: [a b, b c]  # another edit\n"
        spec.write_text(theirs)  # another program changes it while the page has it open
        mine = "trailkit: 1\nkind: trail\nedges: [a b, b d]\n"
        r = c.post("/api/save", json={"name": "probes/stale.yaml", "text": mine,
                                      "base": opened["version"]})
        assert r.status_code == 409 and r.json()["disk"] == theirs, r.text
        assert "changed on disk" in r.json()["error"]
        assert spec.read_text() == theirs  # nothing was written
        # without saying which version it replaces, a save over a file is refused too
        r2 = c.post("/api/save", json={"name": "probes/stale.yaml", "text": mine})
        assert r2.status_code == 409 and spec.read_text() == theirs
        # the author chose theirs over the disk's: quoting the disk's version replaces it
        r3 = c.post("/api/save", json={"name": "probes/stale.yaml", "text": mine,
                                       "base": r.json()["version"]})
        assert r3.status_code == 200 and spec.read_text() == mine
        again = c.post("/api/save", json={"name": "probes/stale.yaml", "text": mine + "#\n",
                                          "base": r3.json()["version"]})
        assert again.status_code == 200
    assert (spec.parent / ".stale.yaml~").read_text() == mine  # one backup: the last text


def test_a_save_keeps_the_replaced_text_and_the_files_mode(served: Served,
                                                          folder: Path) -> None:
    spec = _probes(folder) / "private.yaml"
    old = "trailkit: 1\nkind: trail\nedges: [a b]\n"
    spec.write_text(old)
    spec.chmod(0o600)
    with client(served) as c:
        opened = c.get("/api/file", params={"name": "probes/private.yaml"}).json()
        r = c.post("/api/save", json={"name": "probes/private.yaml", "base": opened["version"],
                                      "text": old + "# more\n"})
        assert r.status_code == 200, r.text
        assert r.json()["version"] != opened["version"]
        names = c.get("/api/info").json()["files"]
    assert spec.read_text() == old + "# more\n"
    assert spec.stat().st_mode & 0o777 == 0o600
    backup = spec.parent / ".private.yaml~"
    assert backup.read_text() == old and backup.stat().st_mode & 0o777 == 0o600
    assert not [n for n in names if "~" in n or "/." in n]  # the backup is not listed


def test_what_cannot_be_saved_is_a_clean_4xx_and_the_file_intact(served: Served,
                                                                folder: Path) -> None:
    probes = _probes(folder)
    (probes / "x.yaml").mkdir(exist_ok=True)
    (probes / "x.yaml" / "inside.txt").write_text("kept")
    spec = probes / "kept.yaml"
    spec.write_text("trailkit: 1\nkind: trail\nedges: [a b]\n")
    with client(served) as c:
        for route in ("/api/save", "/api/create"):
            r = c.post(route, json={"name": "probes/x.yaml", "text": "trailkit: 1\n",
                                    "base": "0"})
            assert 400 <= r.status_code < 500 and "error" in r.json(), (route, r.text)
        assert c.get("/api/file", params={"name": "probes/x.yaml"}).status_code == 400
        version = c.get("/api/file", params={"name": "probes/kept.yaml"}).json()["version"]
        surrogate = b'"trailkit: 1\\nkind: trail\\nedges: [a \\ud800]\\n"'
        for route, body in (
                ("/api/save", b'{"name": "probes/kept.yaml", "base": "%s", "text": %s}'
                 % (version.encode(), surrogate)),
                ("/api/save", b'{"name": "probes/\\udc00.yaml", "text": "trailkit: 1"}'),
                ("/api/analyse", b'{"text": %s}' % surrogate),
                ("/api/edit", b'{"text": %s, "edit": {"kind": "add"}}' % surrogate),
                ("/api/run", b'{"op": "solve", "text": %s}' % surrogate)):
            r = c.post(route, content=body, headers={"content-type": "application/json"})
            assert r.status_code == 400 and "surrogate" in r.json()["error"], (route, r.text)
        for name in ("probes/kept.yaml/", "probes/kept.yaml/.", "./probes/kept.yaml",
                     "probes//kept.yaml", "probes/./kept.yaml"):
            r = c.get("/api/file", params={"name": name})
            assert r.status_code == 400 and "trailkit" not in r.text, name
            r = c.post("/api/save", json={"name": name, "text": "x", "base": version})
            assert r.status_code == 400, name
    assert (probes / "x.yaml" / "inside.txt").read_text() == "kept"
    assert spec.read_text() == "trailkit: 1\nkind: trail\nedges: [a b]\n"


def test_a_save_as_root_keeps_the_files_owner_and_group(served: Served,
                                                         folder: Path) -> None:
    """A server running as root once left a saved file (and its backup) owned by root."""
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root (the server runs as this user)")
    spec = _probes(folder) / "theirs.yaml"
    old = "trailkit: 1\nkind: trail\nedges: [a b]\n"
    spec.write_text(old)
    os.chown(spec, 65534, 65534)  # nobody, nogroup
    spec.chmod(0o640)
    with client(served) as c:
        opened = c.get("/api/file", params={"name": "probes/theirs.yaml"}).json()
        r = c.post("/api/save", json={"name": "probes/theirs.yaml", "base": opened["version"],
                                      "text": old + "# more\n"})
        assert r.status_code == 200, r.text
    for path in (spec, spec.parent / ".theirs.yaml~"):
        seen = path.stat()
        assert (seen.st_uid, seen.st_gid, seen.st_mode & 0o7777) == (65534, 65534, 0o640), path
    assert spec.read_text() == old + "# more\n"


def _json_post(c: httpx.Client, route: str, body: str) -> httpx.Response:
    return c.post(route, content=body.encode(), headers={"content-type": "application/json"})


def test_names_and_bodies_no_file_system_can_take_are_a_400(served: Served,
                                                             folder: Path) -> None:
    """A 305-character name, a name under a file (``a.yaml/x.yaml``), a symlink loop,
    JSON nested 100,000 deep and a 400-digit time limit: each a 400 saying why (they
    were a 500, or a connection reset), nothing written."""
    probes = _probes(folder)
    (probes / "a.yaml").write_text("trailkit: 1\nkind: trail\nedges: [a b]\n")
    for link, to in (("loop.yaml", "loop.yaml"), ("ring1", "ring2"), ("ring2", "ring1")):
        with contextlib.suppress(FileExistsError):
            (probes / link).symlink_to(to)
    long = "probes/" + "x" * 300 + ".yaml"
    cases = {long: "too long", "probes/a.yaml/x.yaml": "a.yaml is a file, not a folder",
             "probes/loop.yaml": "symlink loop", "probes/ring1/x.yaml": "symlink loop"}
    with client(served) as c:
        for name, why in cases.items():
            answers = [c.get("/api/file", params={"name": name})] + [
                c.post(route, json={"name": name, "text": "trailkit: 1\n", "base": "0"})
                for route in ("/api/save", "/api/create")]
            for r in answers:
                assert r.status_code == 400 and why in r.json()["error"], (name, r.text)
        deep = "[" * 100_000 + "]" * 100_000
        r = _json_post(c, "/api/analyse", f'{{"text": "x", "deep": {deep}}}')
        assert r.status_code == 400 and "nested too deeply" in r.json()["error"], r.text
        for route, extra in (("/api/run", '"op": "solve"'), ("/api/design", '"design": {}')):
            r = _json_post(c, route, f'{{{extra}, "text": "trailkit: 1\\nkind: trail\\n'
                                     f'edges: [a b]\\n", "time_limit": {"9" * 400}}}')
            assert r.status_code == 400 and "time_limit is a number" in r.json()["error"], \
                (route, r.text)
    assert (probes / "a.yaml").is_file() and not (probes / "ring1").exists()
    assert not [p.name for p in probes.iterdir() if p.name.startswith("xxx")]


# ------------------------------------------------------------------------- runs
def test_analyse_locates_every_problem(served: Served) -> None:
    text = NIKOLAUS.read_text().replace("c e, d e]", "c ee, d e]")
    with client(served) as c:
        out = c.post("/api/analyse", json={"text": text}).json()
    [problem] = out["problems"]
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "c ee" in t)
    assert problem["line"] == line and problem["level"] == "error"
    assert problem["column"] == text.splitlines()[line - 1].index("c ee") + 1
    assert "did you mean 'e'" in problem["message"] and out["svg"] is None


@pytest.mark.parametrize("op", ["solve", "count", "prove", "repair", "explain"])
def test_every_run_answers_from_a_worker(served: Served, op: str) -> None:
    with client(served) as c:
        out = c.post("/api/run", json={"op": op, "text": ORIGINAL.read_text(),
                                       "slot": f"t-{op}"}).json()
    expected = {"solve": "unsolvable", "count": "solved", "prove": "unsolvable",
                "repair": "repaired", "explain": "unsolvable"}[op]
    assert out["status"] == expected, out
    if op == "repair":
        assert out["repairs"][0]["apply"] == [{"op": "add", "u": "AA", "v": "AB",
                                               "colour": "green", "edge": None,
                                               "directed": False}]
        assert 'data-for="added"' in out["svg"]
    if op == "count":
        assert out["answer"]["solutions"] == 0 and out["answer"]["complete"]


def test_each_backend_solves_and_the_walk_is_there(served: Served, backend) -> None:
    with client(served) as c:
        out = c.post("/api/run", json={"op": "solve", "text": RESTORED.read_text(),
                                       "backend": backend.name, "slot": backend.name}).json()
    assert out["status"] == "solved" and out["backend"].startswith(backend.name)
    assert len(out["steps"]) == out["length"] and out["steps"][0]["from"] == "A"
    assert out["steps"][-1]["to"] == "T"


def test_a_run_past_its_limit_is_unknown_and_says_why(served: Served) -> None:
    with client(served) as c:
        out = c.post("/api/run", json={"op": "count", "text": SLOW, "time_limit": 0.5,
                                       "slot": "limit"}).json()
    assert out["status"] == "unknown" and "limit" in out["text"]


def async_client(server: Served) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.base, timeout=60,
                             cookies={"trailkit_workshop": server.token},
                             headers={"origin": server.base})


async def start_slow_count(c: httpx.AsyncClient, slot: str) -> asyncio.Task:
    """A count of SLOW in ``slot``, returned once the server says it runs."""
    run = asyncio.create_task(c.post("/api/run", json={
        "op": "count", "text": SLOW, "time_limit": 60, "slot": slot}))
    while (await c.get("/api/info")).json()["runs"]["running"] == 0:
        await asyncio.sleep(0.01)  # polling for the sign that it runs
    return run


def test_a_newer_run_cancels_the_older_one(served: Served) -> None:
    async def both() -> tuple[dict, dict]:
        async with async_client(served) as c:
            old = await start_slow_count(c, "same")
            new = await c.post("/api/run", json={"op": "solve", "slot": "same",
                                                 "text": NIKOLAUS.read_text()})
            return (await old).json(), new.json()

    old, new = asyncio.run(both())
    assert old["status"] == "cancelled" and new["status"] == "solved"


def test_a_run_whose_asker_hangs_up_stops_without_a_cancel(served: Served) -> None:
    """A page may go away without its ``pagehide`` word reaching the server (a busy
    machine, a browser that drops it): the run's own connection closing stops it."""
    async def hang_up() -> None:
        async with async_client(served) as c:
            asker = await start_slow_count(c, "hang-up")
            asker.cancel()  # the connection closes; no /api/cancel is sent
            with contextlib.suppress(asyncio.CancelledError):
                await asker

    asyncio.run(hang_up())
    deadline = time.monotonic() + 60
    with client(served) as c:
        while c.get("/api/info").json()["runs"]["running"]:
            assert time.monotonic() < deadline, "the run did not stop in 60 s"
            time.sleep(0.02)  # polling for the server's sign that it stopped


def test_fifty_concurrent_runs_are_answered_or_refused(served: Served) -> None:
    async def flood() -> list[int]:
        async with httpx.AsyncClient(base_url=served.base, timeout=120,
                                     cookies={"trailkit_workshop": served.token},
                                     headers={"origin": served.base},
                                     limits=httpx.Limits(max_connections=50)) as c:
            text = RESTORED.read_text()
            calls = [c.post("/api/run", json={"op": "solve", "text": text, "slot": f"n{i}"})
                     for i in range(50)]
            answers = await asyncio.gather(*calls)
            for r in answers:
                if r.status_code == 200:
                    assert r.json()["status"] == "solved"
            return [r.status_code for r in answers]

    codes = asyncio.run(flood())
    assert set(codes) <= {200, 429, 503}, codes
    assert codes.count(200) >= 2 and codes.count(503) >= 1
    with client(served) as c:
        info = c.get("/api/info").json()
        assert info["runs"]["running"] == info["runs"]["waiting"] == 0
    assert set(served.workers()) <= set(info["analyses"]["pids"])  # no run's worker left


def test_the_backend_picker_lists_every_backend_that_loads(served: Served) -> None:
    from trailkit.solvers.backends.registry import backend_names

    with client(served) as c:
        listed = c.get("/api/info").json()["backends"]
    assert listed[:len(backend_names())] == backend_names()
    if shutil.which("minizinc"):
        assert "minizinc:gecode" in listed
        assert "minizinc:cplex" not in listed  # listed by MiniZinc, runs only with its DLL
    for program in ("cadical", "minisat", "picosat", "cryptominisat5"):
        if shutil.which(program):
            assert f"dimacs:{program}" in listed, listed


def test_count_asks_for_failures_and_one_step_is_one_step(served: Served) -> None:
    with client(served) as c:
        counted = c.post("/api/run", json={"op": "count", "text": NIKOLAUS.read_text(),
                                           "failures": True, "slot": "failures"}).json()
        edge = "trailkit: 1\nkind: trail\nedges: [a b]\n"
        one = c.post("/api/run", json={"op": "solve", "slot": "one", "text": edge}).json()
        proved = c.post("/api/run", json={"op": "prove", "slot": "one", "text": edge}).json()
    assert ("  solutions:      88\n  count: 88 solutions (proven count: BEST theorem "
            "recomputed, best-formula certificate accepted by the independent checker)\n"
            "  failures:       266\n  early failures: 23\n  failures: not certified (no "
            "certificate covers failures); they rest on direct's enumeration") \
        in counted["text"]
    assert counted["answer"]["failures"] == 266 and counted["answer"]["early_failures"] == 23
    assert ": 1 step, verified" in one["text"] and one["steps_text"] == "1 step"
    assert "walk of 1 step exists" in proved["text"]
    assert "1 steps" not in json.dumps([one, proved])


def test_a_problem_says_where_the_name_it_quotes_stands(served: Served) -> None:
    text = ORIGINAL.read_text().replace("  - A E red", "  - A E rde", 1)
    with client(served) as c:
        [problem] = c.post("/api/analyse", json={"text": text}).json()["problems"]
    line = text.splitlines()[problem["line"] - 1]
    assert problem["column"] == 5  # the edge's start, as lint locates it
    start = problem["token_column"] - 1
    assert line[start:start + problem["token_length"]] == "rde"


def _edge(text: str, u: str, v: str) -> int:
    spec = load_spec_text(text)
    return next(e for e in range(spec.num_edges)
                if {spec.nodes[spec.tail[e]], spec.nodes[spec.head[e]]} == {u, v})


def test_inspect_marks_what_the_puzzle_cannot_lose(served: Served) -> None:
    """Issue 34: Inspect runs in a worker; the restored tyre puzzle cannot lose plank
    AA-AB (marked critical on the picture, with its checked certificate), and the
    measures come with the command line's words; the puzzle as found is answered as
    solve answers it."""
    text = RESTORED.read_text()
    plank = _edge(text, "AA", "AB")
    with client(served) as c:
        out = c.post("/api/run", json={"op": "inspect", "text": text, "slot": "i"}).json()
        found = c.post("/api/run", json={"op": "inspect", "text": ORIGINAL.read_text(),
                                         "slot": "i"}).json()
    assert out["status"] == "solvable" and plank in out["critical"]
    assert f'data-inspect="critical" data-edge="{plank}"' in out["svg"]
    assert out["svg"].count('data-inspect="costly"') == len(out["costly"]) == 5
    [entry] = [c for c in out["answer"]["critical"] if c["edge"] == plank]
    assert entry["checked"] and entry["from"] == "AA" and entry["to"] == "AB"
    measures = {m["key"]: m["value"] for m in out["measures"]}
    assert measures["shortest_length"] == "25" and measures["traps"] == "1"
    assert ("traps (reached, goal lost)" in out["text"]
            and [m["words"] for m in out["measures"]][3] == "traps (reached, goal lost)")
    assert len(out["steps"]) == 25
    assert found["status"] == "unsolvable" and "nothing to inspect" in found["text"]


DESIGN = {"layout": "hex:3,4", "min_length": 8, "unique": True, "seed": 2, "count": 3}


def test_design_runs_in_a_worker_and_writes_nothing(served: Served, folder: Path) -> None:
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    with client(served) as c:
        out = c.post("/api/design", json={"text": NIKOLAUS.read_text(), "name": "nikolaus.yaml",
                                          "design": DESIGN, "slot": "d"}).json()
        again = c.post("/api/design", json={"text": "", "design": DESIGN, "slot": "d"}).json()
        info = c.get("/api/info").json()
    assert out["status"] == "designed" and out["op"] == "design"
    assert [d["seed"] for d in out["answer"]["designs"]] == [2, 3, 4]
    texts = [d["text"] for d in out["candidates"]]
    assert texts == [d["text"] for d in again["candidates"]]  # a seed makes it again
    assert len(set(texts)) == 3
    for cand in out["candidates"]:
        spec = load_spec_text(cand["text"])
        assert spec.kind == "colour-walk" and len(spec.nodes) == 12
        assert cand["length"] >= 8 and cand["shortest_walks"] == 1
        assert "certified: the shortest walk is unique" in cand["said"]
        assert cand["svg"].count('class="node') >= 12
    assert "designed candidate 1 (seed 2;" in out["text"]
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    assert info["runs"]["running"] == info["runs"]["waiting"] == 0


@pytest.mark.parametrize(("design", "words"), [
    ("hex:3,4", "a design request is a JSON object"),
    ({"layout": "hex:three,4"}, "cannot read 'hex:three,4': write hex:ROWS,COLS"),
    ({"layout": "ring:3,4"}, "write hex:ROWS,COLS or grid:ROWS,COLS"),
    ({"layout": "hex:100,100"}, "too big to design on"),
    ({"min_length": 0}, "--min-length must be 1 or more"),
    ({"min_length": "20"}, "--min-length: a whole number, not '20'"),
    ({"min_length": 2.5}, "--min-length: a whole number, not 2.5"),
    ({"min_length": 9, "max_length": 5}, "--max-length at least --min-length"),
    ({"seed": True}, "--seed: a whole number, not True"),
    ({"count": 21}, "the workshop shows at most 20 candidates"),
    ({"count": 0}, "--count N: from 1 to 1000 designs"),
    ({"thin": 2}, "--thin P: a share from 0 to 0.9"),
    ({"thin": "a lot"}, "--thin P: a share from 0 to 0.9, not 'a lot'"),
    ({"unique": "yes"}, "--unique: true or false, not 'yes'"),
    ({"colours": "red"}, "--colours: give two or more different colours"),
    ({"colours": ["red", "blue"]}, "--colours: a text, not ['red', 'blue']"),
    ({"targets": 3}, "a design request has no field 'targets'"),
])
def test_a_bad_design_request_is_a_400_with_its_reason(served: Served, design: object,
                                                       words: str) -> None:
    with client(served) as c:
        r = c.post("/api/design", json={"text": "", "design": design, "slot": "bad"})
        info = c.get("/api/info").json()
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert "Traceback" not in r.text and info["runs"]["running"] == 0


@pytest.mark.parametrize(("design", "text", "words"), [
    ({"layout": "hex:3,4", "start": "ZZ"}, "", "--start: 'ZZ' is no node of the field"),
    ({"layout": "spec"}, "trailkit: 1\nkind: trail\nedges: [a b]\n",
     "the spec has no layout: to design on it"),
    ({"layout": "spec"}, "trailkit: 1\nkind: trail\nedges: [a bb, c]\n",
     "scratch.yaml:3:15: error: edges[1] has one end"),
])
def test_what_needs_the_field_is_refused_in_the_commands_words(served: Served, design: dict,
                                                               text: str, words: str) -> None:
    with client(served) as c:
        out = c.post("/api/design", json={"text": text, "design": design, "slot": "f"}).json()
    assert out["status"] == "error" and words in out["text"], out
    assert "Traceback" not in out["text"]


def test_a_design_that_misses_its_targets_says_what_it_lacks(served: Served) -> None:
    """A target no search meets in the time it has: the command line's message, what
    the best found lacks, no candidate."""
    ask = {"layout": "hex:4,5", "min_length": 55, "unique": True, "seed": 1}
    with client(served) as c:
        out = c.post("/api/design", json={"text": "", "design": ask, "time_limit": 1,
                                          "slot": "late"}).json()
    assert out["status"] == "not-found" and out["candidates"] == []
    assert out["text"].startswith("no design met the targets before the time ran out")
    assert "  lacks: its shortest walk has " in out["text"]
    assert "not at least 55" in out["text"]


def test_a_design_run_is_stopped_when_its_page_goes(served: Served) -> None:
    ask = {"layout": "hex:6,7", "min_length": 100, "unique": True, "robust": True}

    async def go() -> tuple[dict, dict]:
        async with httpx.AsyncClient(base_url=served.base, timeout=60,
                                     cookies={"trailkit_workshop": served.token},
                                     headers={"origin": served.base}) as c:
            task = asyncio.create_task(c.post("/api/design", json={
                "text": "", "design": ask, "time_limit": 60, "slot": "gone"}))
            while (await c.get("/api/info")).json()["runs"]["running"] == 0:
                assert not task.done(), (await task).text  # answered without running
                await asyncio.sleep(0.01)  # the sign that it runs
            cancelled = (await c.post("/api/cancel", json={"slot": "gone"})).json()
            return (await task).json(), cancelled

    out, cancelled = asyncio.run(go())
    assert cancelled["cancelled"] == 1 and out["status"] == "cancelled"
    with client(served) as c:
        assert c.get("/api/info").json()["runs"]["running"] == 0


def _path_spec(n: int) -> str:
    """A path of ``n`` nodes (600 KB for 20,000: its drawing takes seconds)."""
    return ("trailkit: 1\nkind: trail\nnodes: [" + ", ".join(f"node{i}" for i in range(n))
            + "]\nedges: [" + ", ".join(f"node{i} node{i + 1}" for i in range(n - 1)) + "]\n")


def _polling(served: Served):
    return httpx.AsyncClient(base_url=served.base, timeout=60, headers={"origin": served.base},
                             cookies={"trailkit_workshop": served.token})


def test_the_analysis_runs_off_the_event_loop(served: Served) -> None:
    """While a spec that takes seconds to draw is analysed, the server answers."""
    async def meanwhile() -> tuple[dict, dict]:
        async with _polling(served) as c:
            # 2,000 nodes: most of a second to analyse, hundreds of polls' time (the
            # 20,000 of the budget test below took seconds more, all of them waited for)
            slow = asyncio.create_task(c.post("/api/analyse", json={
                "text": _path_spec(2_000), "slot": "slow"}))
            during = {}
            while not slow.done():  # polling for the sign: the server says it analyses
                info = (await c.get("/api/info")).json()
                if info.get("analyses", {}).get("running") and not slow.done():
                    during = info
                    break
            quick = (await c.post("/api/analyse", json={"text": NIKOLAUS.read_text(),
                                                         "slot": "quick"})).json()
            await slow
            return during, quick

    during, quick = asyncio.run(meanwhile())
    assert during, "no request was answered while the slow analysis ran"
    assert quick["problems"] == [] and quick["svg"]


def test_an_analysis_past_its_budget_says_so_and_the_next_is_answered() -> None:
    from trailkit.solvers.frontends.workshop.analyser import Analyses
    from trailkit.solvers.frontends.workshop.analysis import analyse

    analyse(NIKOLAUS.read_text())  # as the server does: analysers start warm

    async def two() -> tuple[dict, dict, dict]:
        analyses = Analyses(workers=1, time_s=1.0, memory_mb=2048)
        try:
            slow = await analyses.analyse("a", _path_spec(20_000), "path.yaml", None)
            typo = await analyses.analyse("a", _path_spec(500).replace("node7 node8",
                                                                        "node7 nod8"),
                                          "path.yaml", None)
            quick = await analyses.analyse("a", NIKOLAUS.read_text(), "n.yaml", None)
            return slow, typo, quick
        finally:
            analyses.close()

    slow, typo, quick = asyncio.run(two())
    assert slow["stopped"] == "timeout" and slow["svg"] is None
    assert "took longer than the 1 s" in slow["problems"][-1]["message"]
    assert "did you mean" in typo["problems"][0]["message"]  # lint's, not drawn: quick
    assert quick["svg"] and quick["problems"] == [] and "stopped" not in quick


@pytest.mark.slow
@pytest.mark.alone
def test_ctrl_c_stops_runs_and_workers_and_exits_0(folder: Path) -> None:
    server = start(folder)
    with client(server) as c:
        async def run_then_stop() -> dict:
            async with httpx.AsyncClient(base_url=server.base, timeout=60,
                                         cookies={"trailkit_workshop": server.token},
                                         headers={"origin": server.base}) as ac:
                task = asyncio.create_task(ac.post("/api/run", json={
                    "op": "count", "text": SLOW, "time_limit": 60, "slot": "x"}))
                while not server.workers():
                    await asyncio.sleep(0.01)  # the sign: a worker runs
                pids = server.workers()
                code = await asyncio.to_thread(server.stop)
                assert code == 0
                for pid in pids:
                    assert not Path(f"/proc/{pid}").exists() or \
                        "zombie" in Path(f"/proc/{pid}/status").read_text()
                try:
                    return (await task).json()
                except httpx.HTTPError:
                    return {"status": "connection closed"}

        out = asyncio.run(run_then_stop())
        assert c  # the client was open while the server stopped
    assert out["status"] in ("cancelled", "connection closed")
    assert "stopped" in server.process.stderr.read()


def test_without_a_folder_there_is_a_scratch_spec_and_no_files(tmp_path: Path) -> None:
    server = start(None)
    try:
        with client(server) as c:
            info = c.get("/api/info").json()
            assert info["folder"] is None and info["files"] == []
            assert load_spec_text(info["scratch"]).num_edges == 3
            r = c.post("/api/save", json={"name": "x.yaml", "text": "trailkit: 1\n"})
            assert r.status_code == 400 and "no folder" in r.json()["error"]
    finally:
        assert server.stop() == 0


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    from trailkit.solvers.frontends.workshop import server as module

    real = builtins.__import__

    def no_uvicorn(name: str, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError(name, name=name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    with pytest.raises(TrailkitError, match=r"trailkit\[serve\]"):
        module.serve(None)


# ------------------------------------------------------------------ the library
TYRES = ORIGINAL.read_text()


def _loads(text: str) -> dict:
    return yaml.safe_load(text)


def test_adding_a_plank_keeps_comments_and_order() -> None:
    out = edit_text(TYRES, {"kind": "add", "u": "AA", "v": "AB", "colour": "green"})
    assert out.replace("  - AA AB green\n", "", 1) == TYRES
    assert out.index("- AA AB green") > out.index("- AK AL red")
    assert load_spec_text(out).num_edges == load_spec_text(TYRES).num_edges + 1


def test_moving_a_tyre_changes_its_layout_entry_only() -> None:
    out = edit_text(TYRES, {"kind": "move", "node": "T", "x": 7.25, "y": -0.5})
    assert [a for a, b in zip(TYRES.splitlines(), out.splitlines(), strict=True)
            if a != b] == ["  T: [7, 0]"]
    assert "  T: [7.25, -0.5]" in out


def test_moving_a_node_without_layout_writes_the_whole_layout() -> None:
    text = "trailkit: 1\nkind: trail\nedges: [a b, b c]  # three\n"
    out = edit_text(text, {"kind": "move", "node": "b", "x": 1, "y": 2,
                           "positions": {"a": [0, 0], "b": [9, 9], "c": [2, 0]}})
    assert out.startswith(text)
    assert _loads(out)["layout"] == {"a": [0, 0], "b": [1, 2], "c": [2, 0]}
    auto = edit_text(text + "layout: auto\n", {"kind": "move", "node": "a", "x": 5, "y": 5,
                                               "positions": {"b": [1, 0], "c": [2, 0]}})
    assert _loads(auto)["layout"]["a"] == [5, 5]


@pytest.mark.parametrize(("edit", "line"), [
    ({"kind": "recolour", "edge": 0, "colour": "blue"}, "  - A E blue"),
    ({"kind": "reverse", "edge": 0}, "  - E A red"),
    ({"kind": "remove", "edge": 1}, None),
])
def test_an_edge_is_recoloured_reversed_or_removed_in_place(edit: dict, line: str | None
                                                            ) -> None:
    out = edit_text(TYRES, edit)
    if line is None:
        assert out == TYRES.replace("  - B C blue\n", "", 1)
    else:
        assert out == TYRES.replace("  - A E red", line, 1)


def test_flow_lists_and_other_forms_are_edited_in_their_own_style() -> None:
    text = ("trailkit: 1\nkind: trail\nedges: [a -> b, [b, c], {from: c, to: a}]\n"
            "layout: {a: [0, 0], b: [1, 0], c: [0, 1]}\n")
    assert "[b -> a, [b, c]" in edit_text(text, {"kind": "reverse", "edge": 0})
    assert "[c, b]" in edit_text(text, {"kind": "reverse", "edge": 1})
    assert "{from: a, to: c}" in edit_text(text, {"kind": "reverse", "edge": 2})
    added = edit_text(text, {"kind": "add", "u": "a", "v": "c"})
    assert "{from: c, to: a}, a c]" in added
    moved = edit_text(text, {"kind": "move", "node": "c", "x": 0.5, "y": 1})
    assert "c: [0.5, 1]}" in moved


@pytest.mark.parametrize("edit", [{"kind": "nope"}, {"kind": "remove", "edge": 99},
                                  {"kind": "recolour", "edge": 0, "colour": "teal"},
                                  {"kind": "add", "u": "A", "v": "ZZ"},
                                  {"kind": "move", "node": "ZZ", "x": 0, "y": 0}])
def test_a_bad_edit_is_refused_with_a_message(edit: dict) -> None:
    with pytest.raises(TrailkitError):
        edit_text(TYRES, edit)


def test_the_folder_refuses_what_leads_out(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "out.yaml").write_text("x")
    (tmp_path / "in" / "link.yaml").symlink_to(tmp_path / "out.yaml")
    f = SpecFolder(tmp_path / "in")
    for name in ("../out.yaml", str(tmp_path / "out.yaml"), "link.yaml", "a\\b.yaml", ""):
        with pytest.raises(TrailkitError):
            f.path(name)
    assert f.names() == []
    f.create("sub/new.yaml", "trailkit: 1\n")
    assert f.names() == ["sub/new.yaml"] and os.access(f.path("sub/new.yaml"), os.R_OK)
