"""An editor's view of a spec: the real yaml-language-server, driven over stdio.

The YAML support of VS Code, Neovim, Helix and most editors is one program,
``yaml-language-server`` (npm). This module plays the editor's part of the Language
Server Protocol (JSON-RPC with ``Content-Length`` headers): it starts the server, maps
a schema file to ``*.yaml`` through the ``yaml.schemas`` setting, opens a document and
waits for the server's ``textDocument/publishDiagnostics`` about it.

Where the server is: ``TRAILKIT_YAML_LS`` (its ``bin/yaml-language-server`` script),
else ``.cache/editors/node_modules`` of the checkout (``.ci/run`` installs it there:
``npm install --prefix .cache/editors yaml-language-server``). :func:`server_command`
says why not when node or the package is missing, so a test can skip with that reason.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "editors"
SCRIPT = Path("node_modules") / "yaml-language-server" / "bin" / "yaml-language-server"
WAIT_S = 120.0  # the longest a server may take to answer (about a second; more when busy)


def server_command() -> list[str] | str:
    """The command that starts the server on stdio, or why there is none."""
    node = shutil.which("node")
    if node is None:
        return "node is not installed (apt-get install nodejs npm)"
    script = Path(os.environ.get("TRAILKIT_YAML_LS", CACHE / SCRIPT))
    if not script.exists():
        return (f"yaml-language-server is not installed at {script} "
                f"(npm install --prefix {CACHE} yaml-language-server)")
    return [node, str(script), "--stdio"]


@dataclass(frozen=True)
class Diagnostic:
    """One problem the server reports: 1-based line and column, as an editor shows them."""

    line: int
    column: int
    message: str


class YamlServer:
    """A running yaml-language-server; use as a context manager."""

    def __init__(self, command: list[str], schema: Path, pattern: str = "*.yaml") -> None:
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._next_id = 0
        self._settings = {"yaml": {"validate": True, "schemas": {schema.as_uri(): pattern},
                                   "schemaStore": {"enable": False}}}
        self._request("initialize", {"processId": os.getpid(), "rootUri": None,
                                     "capabilities": {"workspace": {"configuration": True}}})
        self._notify("initialized", {})
        self._notify("workspace/didChangeConfiguration", {"settings": self._settings})

    def __enter__(self) -> YamlServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self._process.kill()
        self._process.wait(timeout=WAIT_S)

    def diagnostics(self, path: Path) -> list[Diagnostic]:
        """Open ``path`` as the editor would and return what the server reports on it."""
        uri = path.resolve().as_uri()
        self._notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": path.read_text(encoding="utf-8")}})
        message = self._wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri)
        return [Diagnostic(d["range"]["start"]["line"] + 1,
                           d["range"]["start"]["character"] + 1, d["message"])
                for d in message["params"]["diagnostics"]]

    # ----------------------------------------------------------------- the protocol
    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self._process.stdin is not None
        self._process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self._process.stdin.flush()

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"method": method, "params": params})

    def _request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        asked = self._next_id
        self._send({"id": asked, "method": method, "params": params})
        return self._wait(lambda m: m.get("id") == asked and "method" not in m)

    def _wait(self, wanted: Any) -> dict[str, Any]:
        """The first message ``wanted`` accepts, answering the server's own requests
        (its settings, capability registrations) on the way."""
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                message = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError("yaml-language-server said nothing wanted in "
                                   f"{WAIT_S} s") from None
            if message is None:
                raise RuntimeError("yaml-language-server exited")
            if wanted(message):
                return message
            if "id" in message and "method" in message:
                self._answer(message)

    def _answer(self, request: dict[str, Any]) -> None:
        result: Any = None
        if request["method"] == "workspace/configuration":
            result = [self._settings.get(item.get("section", ""))
                      for item in request["params"]["items"]]
        self._send({"id": request["id"], "result": result})

    def _read(self) -> None:
        """Every message the server writes, into the inbox; None when it stops."""
        stream = self._process.stdout
        assert stream is not None
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line or length is None:
                self._inbox.put(None)
                return
            self._inbox.put(json.loads(stream.read(length)))
