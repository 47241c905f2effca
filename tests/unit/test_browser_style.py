"""The Browser style sheet (cypher/browser/style.grass): every label the memory writes has a colour,
states show in captions, and the one-line form the local server writes into neo4j.conf carries it whole."""

from __future__ import annotations

import json
import re

from memgraph_neo4j.server.browser_style import parse_grass, post_connect_command, style_sheet
from memgraph_neo4j.server.instance import write_conf
from memgraph_neo4j.store.cypher import cypher_root

SHEET = parse_grass(style_sheet().read_text())


def _labels_in_cypher() -> set[str]:
    """Node labels the program's statements write or match: `(x:Label`, `(:Label` and `SET f:Label`."""
    labels = set()
    for path in cypher_root().rglob("*.cypher"):
        text = re.sub(r"//.*", "", path.read_text())
        labels |= set(re.findall(r"\(\w*:(\w+)", text)) | set(re.findall(r"SET \w+:(\w+)", text))
    return labels


def test_every_label_the_memory_uses_has_a_colour():
    labels = _labels_in_cypher()
    assert {"Document", "Passage", "Entity", "Type", "Fact", "Schema", "Conflict", "Alias", "Unchecked"} <= labels
    unstyled = {label for label in labels if f"node.{label}" not in SHEET}
    assert not unstyled, f"add node.<Label> rules to cypher/browser/style.grass for {sorted(unstyled)}"
    # marker labels on top of another (Unchecked, Unpromoted, Retracting) draw a ring, not a colour
    markers = {label for label in labels if "color" not in SHEET[f"node.{label}"]}
    assert "Unchecked" in markers and {"Fact", "Schema", "Entity"}.isdisjoint(markers)
    assert all(set(SHEET[f"node.{label}"]) == {"border-color", "border-width"} for label in markers)
    colours = [SHEET[f"node.{label}"]["color"] for label in labels - markers]
    assert len(set(colours)) == len(colours), "two labels share a colour"


def test_states_show_in_captions():
    assert SHEET["node.Fact"]["caption"] == "{relation} ({state})"
    assert "{state}" in SHEET["node.Schema"]["caption"] and "{frequency}" in SHEET["node.Schema"]["caption"]
    assert SHEET["node.Conflict"]["caption"] == "{type} ({status})"
    assert "{extraction}" in SHEET["node.Passage"]["caption"]


def test_parse_grass_reads_like_browser():
    text = """node { diameter: 50px; caption: '{name}'; }
              relationship.SIMILAR { color: #C990C0; caption: "SIMILAR {weight}" }"""
    assert parse_grass(text) == {"node": {"diameter": "50px", "caption": "{name}"},
                                 "relationship.SIMILAR": {"color": "#C990C0", "caption": "SIMILAR {weight}"}}


def test_post_connect_command_carries_the_sheet_on_one_line():
    command = post_connect_command()
    assert command.startswith("style {") and "\n" not in command and ";" not in command
    assert json.loads(command.removeprefix("style ")) == SHEET


def test_the_local_server_applies_the_sheet_at_connect(tmp_path):
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    write_conf(tmp_path, conf_dir, tmp_path / "plugins", bolt_port=1, http_port=2, pagecache="1m")
    settings = dict(line.split("=", 1) for line in (conf_dir / "neo4j.conf").read_text().splitlines()
                    if "=" in line and not line.startswith("#"))
    assert settings["browser.post_connect_cmd"] == post_connect_command()
