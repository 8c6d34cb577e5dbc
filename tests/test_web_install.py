"""The page can be put on a phone's home screen: a web app manifest that Chromium reads without an
error, and its icons served at the sizes it names."""

from __future__ import annotations

import json
import struct
import urllib.request

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from test_web import PHONE, browser, server, tab  # noqa: E402, F401

pytestmark = pytest.mark.slow


def test_the_manifest_reads_without_error_and_its_icons_have_the_sizes_it_names(server, browser):  # noqa: F811
    with tab(browser, PHONE) as t:
        t.open(server)
        got = t("Page.getAppManifest")
        assert got["url"] == f"{server}/static/manifest.json"
        assert got["errors"] == []
        manifest = json.loads(got["data"])
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        with urllib.request.urlopen(f"{server}{icon['src']}", timeout=10) as r:
            body, kind = r.read(), r.headers["Content-Type"]
        assert kind == icon["type"]
        if kind == "image/png":
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", body[16:24])
            assert icon["sizes"] == f"{width}x{height}"
        else:
            assert body.startswith(b"<svg") and icon["sizes"] == "any"
