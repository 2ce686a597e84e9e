"""The workshop's safety rules, enforced on every request before any route sees it.

A page served on 127.0.0.1 can still be reached by other pages the browser shows, so:

* **Host.** Only ``ADDRESS:PORT`` (the address it listens on) and ``localhost:PORT`` are
  answered; anything else is 403. A DNS-rebinding page (``evil.example`` resolving to
  127.0.0.1) sends its own name as Host, and is refused.
* **Token.** Every request carries the access token: as ``?token=`` on the first visit
  (the URL printed at start), which is answered with a redirect that sets an HttpOnly,
  SameSite=Strict cookie and drops the token from the address bar; then as that cookie.
  Without it: 403. Tokens are compared in constant time. The redirect only ever points
  to a path of this server: ``Location`` is one ``/`` and the path, percent-encoded
  (``GET //evil.example/?token=T`` goes to ``/evil.example/``, never to another host).
* **Writes.** A request that is not GET or HEAD needs an ``Origin`` header naming the page
  itself (``http://HOST``): another site's form or ``fetch`` is 403.
* **Size.** A request body over ``max_body`` bytes is 413, counted as it arrives (a
  missing or false ``Content-Length`` does not get past).
* **Headers.** Every answer carries a Content-Security-Policy that allows the page's own
  scripts and styles only (no inline script, no ``eval``, nothing from elsewhere;
  CodeMirror's generated styles carry the page's nonce), and says ``nosniff``,
  ``no-referrer`` and that no other page may frame it.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

__all__ = ["COOKIE", "Guard", "content_security_policy", "new_token", "own_path",
           "security_headers"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "trailkit_workshop"


def new_token() -> str:
    """A fresh access token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def content_security_policy(nonce: str | None = None) -> str:
    """The policy every answer carries: own scripts only; own styles and, for the
    editor's generated styles, the page's ``nonce``; inline SVG pictures as data."""
    styles = f"'self' 'nonce-{nonce}'" if nonce else "'self'"
    return ("default-src 'none'; script-src 'self'; "
            f"style-src {styles}; img-src 'self' data: blob:; "
            "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


class Guard:
    """ASGI middleware that enforces the rules of the module docstring around ``app``."""

    def __init__(self, app: ASGIApp, *, token: str, hosts: set[str], max_body: int) -> None:
        self.app, self.token, self.max_body = app, token, max_body
        self.hosts = {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            await _refuse(send, 403, "wrong Host header: this workshop answers only "
                          f"{' or '.join(sorted(self.hosts))}")
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = (query.get("token") or [""])[0]
        if given and _same(given, self.token) and scope["method"] in ("GET", "HEAD"):
            await _welcome(scope, send, self.token, query)
            return
        refusal = self._refusal(scope, headers, host)
        if refusal is not None:
            await _refuse(send, *refusal)
            return
        await _CappedExchange(send, receive, self.max_body).run(self.app, scope)

    def _refusal(self, scope: Scope, headers: dict[str, str], host: str
                 ) -> tuple[int, str] | None:
        """Why a request with a known Host is refused (status, message), if it is: no
        token cookie, a write from another origin, a body declared too big."""
        if not _same(_cookie(headers.get("cookie", "")), self.token):
            return 403, ("no access token: open the URL that trailkit serve "
                         "printed (it ends in ?token=...)")
        if scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin", "")
            if origin.lower() != f"http://{host}" \
                    or headers.get("sec-fetch-site", "same-origin") != "same-origin":
                return 403, ("cross-origin request refused: writes come from "
                             "the workshop's own page only")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, f"request body over {self.max_body:,} bytes refused"
        return None


class _CappedExchange:
    """One request passed to the app with its body capped at ``max_body`` bytes as it
    streams in (a 413 then, the app's answer dropped), and the security headers added
    to an answer that has none."""

    def __init__(self, send: Send, receive: Receive, max_body: int) -> None:
        self._send, self._receive, self.max_body = send, receive, max_body
        self.started = self.refused = False
        self.seen = 0

    async def run(self, app: ASGIApp, scope: Scope) -> None:
        try:
            await app(scope, self.receive, self.send)
        except Exception:
            if not self.refused:
                raise

    async def send(self, message: Message) -> None:
        if self.refused:  # the 413 went out already: the app's answer is dropped
            return
        if message["type"] == "http.response.start":
            self.started = True
            names = {k.lower() for k, _ in message.get("headers", [])}
            if b"content-security-policy" not in names:
                message["headers"] = [*message.get("headers", []), *security_headers()]
        await self._send(message)

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.request":
            self.seen += len(message.get("body", b""))
            if self.seen > self.max_body and not self.started:
                self.refused = True
                await _refuse(self._send, 413, f"request body over {self.max_body:,} bytes "
                              "refused")
                return {"type": "http.disconnect"}
        return message


def own_path(path: str) -> str:
    """``path`` as a redirect that stays on this server: one leading ``/`` (``//host``
    and ``/\\host`` are other hosts to a browser), the rest percent-encoded (no
    control character or backslash reaches the header).

    >>> own_path("//evil.example/"), own_path("/" + chr(92) + "evil.example"), own_path("/a b")
    ('/evil.example/', '/evil.example', '/a%20b')
    """
    return "/" + quote(path.lstrip("/\\\t\r\n "), safe="/")


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode(), token.encode())


def _cookie(header: str) -> str:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed cookie header is no token
        return ""
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else ""


async def _welcome(scope: Scope, send: Send, token: str, query: dict[str, list[str]]) -> None:
    """The first visit: set the cookie and send the browser on without the token."""
    rest = {k: v for k, v in query.items() if k != "token"}
    location = own_path(scope.get("path", "/")) \
        + (f"?{urlencode(rest, doseq=True)}" if rest else "")
    cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", location.encode()), (b"set-cookie", cookie.encode()),
                            (b"cache-control", b"no-store"), (b"content-length", b"0"),
                            *security_headers()]})
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, status: int, message: str) -> None:
    body = (message + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            *security_headers()]})
    await send({"type": "http.response.body", "body": body})


def security_headers(nonce: str | None = None) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries (see the module docstring)."""
    return [(b"content-security-policy", content_security_policy(nonce).encode()),
            (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"), (b"cross-origin-opener-policy", b"same-origin"),
            (b"cross-origin-resource-policy", b"same-origin")]
