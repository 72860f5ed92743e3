"""The client's files served from memory: ``/`` (the one page) and ``/static/<version>/<file>``.

Every asset URL carries a version, the hash of the whole static tree
(``/static/<version>/app.js``), so relative imports between modules inherit
it and browsers may keep every asset for a year; ``index.html``, the one URL
that names the version, is never cached. A server started from a working
tree notices edited files (a second at most) and moves to a new version.

The gateway (``make run``) and the web service (the deployments) mount the
same two endpoints, so a page is the same bytes whichever serves it.
"""

from __future__ import annotations

import gzip
import hashlib
import time
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

STATIC = Path(__file__).resolve().parent / "static"
#: Served at all; anything else in the tree (an editor's swap file) is not.
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}
#: Binary formats are compressed already.
COMPRESSIBLE = {".js", ".css", ".html", ".svg", ".json"}
IMMUTABLE = "public, max-age=31536000, immutable"
#: How often the tree is looked at for edits.
RESCAN_S = 1.0
#: The page's own origin only; styles may be inline because renderers draw SVG with style attributes.
CSP = (
    "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_PAGE_HEADERS = {
    "cache-control": "no-cache",
    "content-security-policy": CSP,
    # Seat and organiser tokens live in the URL fragment, which browsers never
    # send; no referrer either, so not even the page's path leaves with a link.
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


def not_found(message: str) -> Response:
    """A refusal in the API's error format (services/gateway/errors.py; a test holds
    the two equal): this package serves no API, so it imports none of the gateway."""
    body = b'{"status":"rejected","code":"not_found","message":"%s","details":{}}' % message.encode()
    return Response(body, status_code=404, media_type="application/json")


@dataclass(frozen=True, slots=True)
class _Asset:
    body: bytes
    gzipped: bytes | None
    etag: str
    media_type: str


class Assets:
    """The static tree in memory, with its version (a hash of every file)."""

    def __init__(self, root: Path = STATIC) -> None:
        self.root = root
        self.version = ""
        self._files: dict[str, _Asset] = {}
        self._signature: tuple[tuple[str, int, int], ...] = ()
        self._checked = float("-inf")

    def _scan(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        for path in self.root.rglob("*"):
            rel = path.relative_to(self.root).as_posix()
            if path.suffix in TYPES and path.is_file() and not any(p.startswith(".") for p in rel.split("/")):
                stat = path.stat()
                found.append((rel, stat.st_mtime_ns, stat.st_size))
        return tuple(sorted(found))

    def refresh(self) -> None:
        now = time.monotonic()
        if now - self._checked < RESCAN_S:
            return
        self._checked = now
        signature = self._scan()
        if signature == self._signature:
            return
        files: dict[str, _Asset] = {}
        tree = hashlib.sha256()
        for rel, _, _ in signature:
            body = (self.root / rel).read_bytes()
            digest = hashlib.sha256(body).hexdigest()
            suffix = Path(rel).suffix
            packed = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSIBLE and len(body) > 512 else None
            files[rel] = _Asset(body, packed, f'"{digest[:20]}"', TYPES[suffix])
            tree.update(f"{rel}\0{digest}\0".encode())
        self._files, self._signature, self.version = files, signature, tree.hexdigest()[:12]

    def get(self, rel: str) -> _Asset | None:
        self.refresh()
        return self._files.get(rel)

    def respond(
        self, request: Request, asset: _Asset, cache: str, extra: dict[str, str] | None = None
    ) -> Response:
        headers = {"etag": asset.etag, "cache-control": cache, "vary": "accept-encoding", **(extra or {})}
        if asset.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            headers["content-encoding"] = "gzip"
            return Response(asset.gzipped, media_type=asset.media_type, headers=headers)
        return Response(asset.body, media_type=asset.media_type, headers=headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``/static/<version>/<file>``: immutable under the current version; an older
        version (a page loaded before an edit or a deploy) gets today's file, revalidated."""
        request = Request(scope, receive)
        root = scope.get("root_path", "")
        rest = scope["path"][len(root) :] if scope["path"].startswith(root) else scope["path"]
        version, _, rel = rest.lstrip("/").partition("/")
        asset = self.get(rel) if scope["method"] in ("GET", "HEAD") else None
        if asset is None or rel == "index.html":
            response = not_found("There is no such file.")
        else:
            response = self.respond(request, asset, IMMUTABLE if version == self.version else "no-cache")
        await response(scope, receive, send)


ASSETS = Assets()


async def index(request: Request) -> Response:
    """The one page: the app routes on ``location.hash``."""
    asset = ASSETS.get("index.html")
    if asset is None:
        return not_found("The web client is not installed.")
    page = asset.body.replace(b"{{version}}", ASSETS.version.encode())
    etag = f'"{hashlib.sha256(page).hexdigest()[:20]}"'
    headers = {**_PAGE_HEADERS, "etag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(page, media_type="text/html; charset=utf-8", headers=headers)
