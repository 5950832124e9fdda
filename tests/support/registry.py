"""A local npm registry for the corpus tests: serves the fixture tarballs of
fixtures/corpus/tarballs (packuments with versions, publish times and sha512 integrity), so
that `erratlas corpus add` goes through the real `npm view` / `npm pack` without the network.

    with LocalRegistry(times) as registry:
        env = registry.npm_env(tmp_path)   # npm_config_registry, a private npm cache
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import tarfile
import threading
import urllib.parse
from pathlib import Path
from typing import Any

import orjson

TARBALLS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "tarballs"
#: an address nothing listens on: npm fails at once (offline)
UNREACHABLE = "http://127.0.0.1:9/"


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


class LocalRegistry:
    def __init__(self, times: dict[str, str], tarballs: Path = TARBALLS) -> None:
        """`times`: "name@version" -> ISO publish time, for every tarball to serve."""
        self.tarballs: dict[str, bytes] = {}
        self.packuments: dict[str, dict[str, Any]] = {}
        self._times = times
        self._folder = tarballs
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        for spec, time in sorted(times.items()):
            name, _, version = spec.rpartition("@")
            data = (tarballs / f"{name}-{version}.tgz").read_bytes()
            file = f"{name}-{version}.tgz"
            self.tarballs[file] = data
            document = self.packuments.setdefault(name, {"name": name, "versions": {}, "time": {}, "dist-tags": {}})
            document["versions"][version] = {
                "name": name, "version": version,
                "dist": {"tarball": f"{self.url}{name}/-/{file}", "integrity": integrity(data),
                         "shasum": hashlib.sha1(data).hexdigest()},
            }
            document["time"][version] = time
            document["dist-tags"]["latest"] = max(document["versions"], key=lambda v: tuple(map(int, v.split("."))))

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        registry = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = urllib.parse.unquote(self.path.split("?", 1)[0]).lstrip("/")
                if "/-/" in path:
                    body = registry.tarballs.get(path.rsplit("/-/", 1)[1])
                    kind = "application/octet-stream"
                else:
                    found = registry.packuments.get(path)
                    body = orjson.dumps(found) if found is not None else None
                    kind = "application/json"
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(b'{"error":"Not found"}')
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        return Handler

    def __enter__(self) -> LocalRegistry:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def npm_env(self, home: Path, registry: str | None = None) -> dict[str, str]:
        return npm_env(home, registry or self.url)


def write_tarball(folder: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    """`folder/NAME-VERSION.tgz` holding `package/PATH` for each file (a package.json naming the
    package added when absent), entries sorted and dated 0, as the registry serves it."""
    files = {"package.json": orjson.dumps({"name": name, "version": version, "main": "dist/index.js"}), **files}
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path, data in sorted(files.items()):
            info = tarfile.TarInfo(f"package/{path}")
            info.size, info.mtime = len(data), 0
            archive.addfile(info, io.BytesIO(data))
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{name}-{version}.tgz"
    out.write_bytes(buffer.getvalue())
    return out


def npm_env(home: Path, registry: str) -> dict[str, str]:
    """Environment for the `erratlas` subprocess: npm talks to `registry` only, with its own cache."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.lower().startswith("npm_config_")}
    env.update({
        "npm_config_registry": registry,
        "npm_config_cache": str(home / "npm-cache"),
        "npm_config_userconfig": str(home / "npmrc"),
        "npm_config_fetch_retries": "0",
        "npm_config_fetch_timeout": "5000",
        "npm_config_offline": "false",
    })
    return env


def commonjs_module(name: str, functions: list[str]) -> str:
    """`var NAME = wrap(...)`: a CommonJS module as Bun and esbuild wrap one file (a `__commonJS`-shaped
    helper `wrap`, no key), exporting its functions; for bundles written beside a registry's packages."""
    return (f"var {name} = wrap((exports, module) => {{\n" + "\n".join(functions)
            + f"\n  module.exports = {{ {', '.join(f.split('(')[0].split()[-1] for f in functions)} }};\n}});")
