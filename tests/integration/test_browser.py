"""Neo4j Browser is served at /browser/ and renders its connect form in headless Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import urllib.request

import pytest

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1280,900", "--virtual-time-budget=20000",
]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    return None


def test_browser_is_served(http_url):
    with urllib.request.urlopen(f"{http_url}/browser/", timeout=30) as resp:
        assert resp.status == 200
        assert "neo4j" in resp.read().decode(errors="replace").lower()


@pytest.mark.browser
def test_browser_renders_connect_form(http_url, artifacts_dir):
    chromium = _chromium()
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Chromium (Debian package `chromium`) for the Browser test")
        pytest.skip("headless Chromium not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        flags = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
        dom = subprocess.run([*flags, "--dump-dom", f"{http_url}/browser/"], capture_output=True, text=True,
                             timeout=180).stdout
        shot = artifacts_dir / "neo4j-browser.png"
        shot.unlink(missing_ok=True)
        subprocess.run([*flags, f"--screenshot={shot}", f"{http_url}/browser/"], capture_output=True, timeout=180)
    # The rendered SPA (not the static shell) carries the connect form: URL, user, password, Connect.
    lowered = dom.lower()
    assert 'type="password"' in lowered, dom[:2000]
    assert "connect" in lowered and "username" in lowered
    assert shot.exists() and shot.stat().st_size > 10_000
