"""Neo4j Browser: served at /browser/, renders its connect form, and runs the guide queries of
cypher/browser/ with the style sheet applied. The guide queries are also checked row by row on a
memory with known content (known_memory.py)."""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from known_memory import build_known_memory

from memgraph_neo4j.contracts import ConflictStatus, FactState, SchemaState
from memgraph_neo4j.server.browser_style import parse_grass, post_connect_command, style_sheet
from memgraph_neo4j.store.cypher import cypher_root

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1280,900",
]
ONE_SHOT_FLAGS = ["--virtual-time-budget=20000"]  # --dump-dom / --screenshot: wait for the SPA to render
ACTIVE_OR_PENDING = [FactState.ACTIVE, FactState.PENDING]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    if os.environ.get("CI"):
        pytest.fail("CI must install Chromium (Debian package `chromium`) for the Browser test")
    pytest.skip("headless Chromium not installed (Debian: apt-get install chromium)")


@pytest.fixture(scope="module")
def known_space(store, minilm):
    space = f"t_{uuid.uuid4().hex[:10]}"
    build_known_memory(store, space, minilm)
    yield space
    store.run_implicit("admin/delete_space", space=space)


def test_browser_is_served(http_url):
    with urllib.request.urlopen(f"{http_url}/browser/", timeout=30) as resp:
        assert resp.status == 200
        assert "neo4j" in resp.read().decode(errors="replace").lower()


@pytest.mark.browser
def test_browser_renders_connect_form(http_url, artifacts_dir):
    chromium = _chromium()
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        flags = [chromium, *CHROMIUM_FLAGS, *ONE_SHOT_FLAGS, f"--user-data-dir={profile}"]
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


# ----- the guide queries, row by row -------------------------------------------------------------
def test_ontology_guide_lists_stable_schemas_by_frequency(store, known_space):
    rows = store.read("browser/ontology", space=known_space, stable=SchemaState.STABLE)
    # died_in and translated were seen once: candidates, not part of the ontology graph
    assert [(r["head_type"], r["relation"], r["tail_type"], r["frequency"], r["facts"]) for r in rows] == [
        ("Person", "born_in", "Place", 4, 4), ("Person", "birth_date", "Date", 2, 2),
        ("Person", "knows", "Person", 2, 2)]
    assert {r["schema"]["state"] for r in rows} == {"stable"} and rows[0]["tail"]["name"] == "Place"


def test_fact_guide_shows_evidence_entities_and_schema(store, test_store, known_space):
    facts = {r["text"]: r for r in test_store.read("facts_with_evidence", space=known_space)}
    fact_id = facts["Marie Curie born in Warsaw (1867)"]["id"]
    [row] = store.read("browser/fact", space=known_space, fact_id=fact_id[:8])  # a prefix is enough
    assert (row["id"], row["state"], row["subject_name"], row["object_name"]) == (
        fact_id, FactState.ACTIVE, "Marie Curie", "Warsaw")
    assert (row["schema_relation"], row["schema_state"], row["schema_frequency"]) == ("born_in", "stable", 4)
    # the duplicate merged into this fact brought its passage: both documents are evidence now
    assert [p["title"] for p in row["passages"]] == ["Curie_A", "Curie_B"]
    assert len(row["evidence"]) == 2 and row["subject"] and row["schema"]
    assert store.read("browser/fact", space=known_space, fact_id="no-such-fact") == []


def test_conflicts_guide_shows_what_needs_review(store, known_space):
    review = store.read("browser/conflicts", space=known_space,
                        statuses=[ConflictStatus.OPEN, ConflictStatus.NEEDS_REVIEW])
    assert [(r["type"], r["status"]) for r in review] == [("mutual_exclusion", "needs_review")]
    assert [(f["text"], f["state"]) for f in review[0]["facts"]] == [
        ("Isaac Newton birth date 1643", "active"), ("Isaac Newton birth date 1645", "active")]
    assert len(review[0]["involves"]) == 2 and review[0]["context"]  # entities and the CONFLICTS_WITH edge
    [resolved] = store.read("browser/conflicts", space=known_space, statuses=[ConflictStatus.RESOLVED])
    assert resolved["type"] == "duplicate"
    assert [(f["text"], f["state"], f["proposed"]) for f in resolved["facts"]] == [
        ("Marie Curie born in Warsaw", "superseded", "merge"), ("Marie Curie born in Warsaw (1867)", "active", "keep")]


def _neighbourhood(store, space, seeds, hops=2, states=ACTIVE_OR_PENDING, top=15):
    return store.read("browser/neighbourhood", space=space, seeds=seeds, hops=hops, fact_states=states, top=top)


NEWTON_REGION = {"Isaac Newton", "1643", "1645", "Woolsthorpe", "London", "Newton_A", "Newton_B"}


def test_neighbourhood_guide_ranks_the_seeds_region(store, test_store, known_space):
    rows = _neighbourhood(store, known_space, ["Isaac Newton"])
    assert rows[0]["name"] == "Isaac Newton" and rows[0]["kind"] == "entity"
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    # two facts away: Ada Lovelace (born in London, where Newton died) and her passage; never Marie Curie
    assert {r["name"] for r in rows} == NEWTON_REGION | {"Ada Lovelace", "Lovelace"}
    assert {f["text"] for f in rows[0]["facts"]} == {
        "Isaac Newton birth date 1643", "Isaac Newton birth date 1645", "Isaac Newton born in Woolsthorpe",
        "Isaac Newton died in London"}
    assert not [g for g in test_store.read("health_graphs") if g["name"] == f"browser_ppr_{known_space}"]

    # one fact away: no Ada Lovelace, but her passage mentions London, which is in the region
    one_hop = {r["name"] for r in _neighbourhood(store, known_space, ["Isaac Newton"], hops=1)}
    assert one_hop == NEWTON_REGION | {"Lovelace"}
    # only active facts: "died in London" is pending, so London and everything past it drop out
    active = {r["name"] for r in _neighbourhood(store, known_space, ["Isaac Newton"], states=[FactState.ACTIVE])}
    assert active == NEWTON_REGION - {"London"}
    assert len(_neighbourhood(store, known_space, ["Isaac Newton"], top=3)) == 3
    assert _neighbourhood(store, known_space, ["Nobody"]) == []


# ----- the Browser itself, driven over the Chrome DevTools Protocol --------------------------------
class DevTools:
    """Headless Chromium and one page, driven over CDP (websockets): navigate, evaluate, screenshot."""

    def __init__(self, chromium: str, profile: str) -> None:
        self.chromium, self.profile = chromium, profile
        self.stack = contextlib.ExitStack()
        self.ids = itertools.count(1)

    def __enter__(self) -> DevTools:
        from websockets.sync.client import connect

        process = subprocess.Popen(
            [self.chromium, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.stack.callback(process.wait, 30)
        self.stack.callback(process.terminate)
        port_file = Path(self.profile) / "DevToolsActivePort"
        self._wait(lambda: port_file.exists() and port_file.read_text().strip(), 60, "Chromium's DevTools port")
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as resp:
            page = next(t for t in json.load(resp) if t["type"] == "page")
        self.socket = self.stack.enter_context(connect(page["webSocketDebuggerUrl"], max_size=2**26))
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    @staticmethod
    def _wait(ready, timeout: float, what: str):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if value := ready():
                return value
            time.sleep(0.25)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}")

    def send(self, method: str, **params) -> dict:
        call = next(self.ids)
        self.socket.send(json.dumps({"id": call, "method": method, "params": params}))
        while (message := json.loads(self.socket.recv(timeout=120))).get("id") != call:
            pass  # events
        assert "error" not in message, message
        return message["result"]

    def js(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60):
        return self._wait(lambda: self.js(expression), timeout, expression)

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))


SET_INPUT = """(selector, value) => { const input = document.querySelector(selector);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value);
  input.dispatchEvent(new Event('input', {bubbles: true})); }"""  # so React sees the change
FRAMES = "document.querySelectorAll('[data-testid=frame]')"
NEWEST_FRAME = "document.querySelector('[data-testid=frame]')"  # Browser stacks new frames on top


def _frame_with(marker: str) -> str:
    """JS: the newest frame whose text shows `marker`. Not simply the newest frame: the server's
    post-connect `:style` frame can land on top of the test's frames at any time."""
    return f"Array.from({FRAMES}).find(f => f.innerText.includes({json.dumps(marker)}))"


def _newest_frame_once(page: DevTools, marker: str, timeout: float = 120) -> str:
    """The text of the newest frame that shows `marker`, once there is one (on time-out, the error
    shows the newest frame)."""
    try:
        return page.wait_for(f"(() => {{ const f = {_frame_with(marker)}; return f && f.innerText; }})()", timeout)
    except AssertionError as exc:
        newest = page.js(NEWEST_FRAME + ".innerText")[:1500]
        raise AssertionError(f"{exc}; the newest frame shows: {newest!r}") from None


def _run_in_editor(page: DevTools, command: str) -> None:
    """Type a command into Browser's editor and run it, as a person pasting it would."""
    frames = page.js(f"{FRAMES}.length")
    page.js("document.querySelector('[data-testid=activeEditor] textarea').focus()")
    page.send("Input.insertText", text=command)
    page.js("document.querySelector('[data-testid=editor-Run]').click()")
    page.wait_for(f"{FRAMES}.length > {frames}")


@pytest.mark.browser
def test_browser_runs_the_neighbourhood_guide(http_url, neo4j_connection, known_space, artifacts_dir):
    chromium = _chromium()
    query = (cypher_root() / "browser" / "neighbourhood.cypher").read_text()
    shot = artifacts_dir / "neo4j-browser-guide.png"
    shot.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile, DevTools(chromium, profile) as page:
        user_at = neo4j_connection.uri.replace("://", f"://{neo4j_connection.username}@")  # prefills the form
        page.send("Page.navigate", url=f"{http_url}/browser/?dbms={user_at}")
        page.wait_for("!!document.querySelector('[data-testid=password]')", 120)
        page.js(f"({SET_INPUT})('[data-testid=password]', {json.dumps(neo4j_connection.password)})")
        page.js("document.querySelector('[data-testid=connect]').click()")
        page.wait_for("document.body.innerText.includes('You are connected')", 60)
        # the local server's post-connect `:style` frame arrives a moment after connecting; clear it
        # away so that the screenshot shows the guide's result
        try:
            page.wait_for(f"!!{_frame_with(':style')}", 20)
        except AssertionError:
            pass  # a server started before the style sheet existed runs no post-connect command
        page.js("document.querySelector('[data-testid=activeEditor] textarea').focus()")
        page.send("Input.insertText", text=":clear")
        page.js("document.querySelector('[data-testid=editor-Run]').click()")
        page.wait_for(f"{FRAMES}.length === 0")

        _run_in_editor(page, ":" + post_connect_command())  # what the local server runs at connect
        params = {"space": known_space, "seeds": ["Isaac Newton"], "hops": 2, "fact_states": ACTIVE_OR_PENDING,
                  "top": 15}
        _run_in_editor(page, ":params " + json.dumps(params))
        _run_in_editor(page, query)
        graph = _newest_frame_once(page, "Displaying")
        captions = _newest_frame_once(page, "(pending)", 30)  # the SVG is drawn after the overview
        time.sleep(2)  # let the force layout settle before the picture
        page.screenshot(shot)
        page.js(f"{_frame_with('Displaying')}.querySelector('[data-testid=cypherFrameSidebarTable]').click()")
        table = _newest_frame_once(page, "Started streaming")
        grass = json.loads(page.js("localStorage.getItem('neo4j.grass')"))
    # the graph view: 6 entities, 3 passages and the 5 facts between the entities, styled by our sheet
    assert "Displaying 14 nodes" in graph, graph[-500:]
    assert "Entity (6)" in graph and "Passage (3)" in graph and "Fact (5)" in graph
    assert "born_in" in captions and "died_in" in captions and "(active)" in captions  # Fact: relation (state)
    assert grass == parse_grass(style_sheet().read_text())
    # the table: 9 ranked rows, the seed first, two hops out but not beyond
    assert "Started streaming 9 records" in table
    assert "Isaac Newton" in table and "Ada Lovelace" in table and "Marie Curie" not in table
    assert shot.exists() and shot.stat().st_size > 30_000
