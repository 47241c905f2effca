"""config.Settings reads MEMGRAPH_<FIELD> itself (no pydantic-settings: ~90 ms of the one-shot CLI's start);
config.Connection reads nothing from the environment."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from memgraph_neo4j.config import Connection, Settings


@pytest.fixture(autouse=True)
def no_memgraph_env(monkeypatch):
    """The developer's own MEMGRAPH_* variables must not decide these tests."""
    for name in list(os.environ):
        if name.upper().startswith("MEMGRAPH_"):
            monkeypatch.delenv(name)


def test_without_environment_the_defaults():
    settings = Settings()
    assert (settings.bolt_port, settings.instance, settings.maven, settings.start_timeout) == (7687, None, "auto",
                                                                                                180.0)
    assert isinstance(settings.home, Path) and settings.home.name == "memgraph-neo4j"
    assert settings.explicit == frozenset()


def test_environment_values_are_read_in_any_case_and_converted(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMGRAPH_BOLT_PORT", " 7688 ")
    monkeypatch.setenv("memgraph_start_timeout", "12.5")  # pydantic-settings matched names case-insensitively
    monkeypatch.setenv("Memgraph_Home", str(tmp_path))
    monkeypatch.setenv("MEMGRAPH_INSTANCE", str(tmp_path / "inst"))
    monkeypatch.setenv("MEMGRAPH_MAVEN", "fetch")
    monkeypatch.setenv("MEMGRAPH_LLM_MODEL", "gpt-test")
    monkeypatch.setenv("MEMGRAPH_EMBEDDING_DIMENSION", "768.0")  # pydantic took a whole float too
    monkeypatch.setenv("MEMGRAPH_NOT_A_SETTING", "ignored")
    settings = Settings()
    assert settings.bolt_port == 7688 and type(settings.bolt_port) is int
    assert settings.start_timeout == 12.5 and type(settings.start_timeout) is float
    assert settings.home == tmp_path and isinstance(settings.home, Path)
    assert settings.instance == tmp_path / "inst" and isinstance(settings.instance, Path)
    assert (settings.maven, settings.llm_model, settings.embedding_dimension) == ("fetch", "gpt-test", 768)
    assert settings.http_port == 7474  # not in the environment: the default
    assert settings.explicit == {"bolt_port", "start_timeout", "home", "instance", "maven", "llm_model",
                                 "embedding_dimension"}


def test_keyword_arguments_beat_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMGRAPH_BOLT_PORT", "1")
    monkeypatch.setenv("MEMGRAPH_HEAP", "9g")
    monkeypatch.setenv("MEMGRAPH_HOME", "/nowhere")
    monkeypatch.setenv("MEMGRAPH_PAGECACHE", "1g")
    settings = Settings(home=str(tmp_path), bolt_port=17687, heap="512m", instance=None)
    assert (settings.bolt_port, settings.heap, settings.home, settings.instance) == (17687, "512m", tmp_path, None)
    assert settings.pagecache == "1g"  # no argument: the environment
    assert settings.explicit == {"home", "bolt_port", "heap", "instance", "pagecache"}


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("MEMGRAPH_BOLT_PORT", "abc", "MEMGRAPH_BOLT_PORT='abc' is not an integer"),
    ("MEMGRAPH_HTTP_PORT", "74.5", "MEMGRAPH_HTTP_PORT='74.5' is not an integer"),
    ("MEMGRAPH_BOLT_PORT", "", "MEMGRAPH_BOLT_PORT='' is not an integer"),
    ("MEMGRAPH_START_TIMEOUT", "soon", "MEMGRAPH_START_TIMEOUT='soon' is not a number"),
    ("memgraph_maven", "always", "MEMGRAPH_MAVEN='always' is not one of 'auto', 'fetch'"),
    ("MEMGRAPH_MAVEN", "FETCH", "MEMGRAPH_MAVEN='FETCH' is not one of 'auto', 'fetch'"),  # values keep their case
])
def test_a_bad_value_names_the_variable_the_value_and_what_is_allowed(monkeypatch, variable, value, message):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError) as bad:
        Settings()
    assert str(bad.value) == message


def test_bad_or_unknown_keyword_arguments():
    with pytest.raises(ValueError, match=r"^maven='always' is not one of 'auto', 'fetch'$"):
        Settings(maven="always")
    with pytest.raises(ValueError, match=r"^bolt_port='x' is not an integer$"):
        Settings(bolt_port="x")
    with pytest.raises(TypeError, match="bolt_prt"):
        Settings(bolt_prt=1)


def test_retrieval_config_takes_the_settings_and_the_overrides_not_none(monkeypatch):
    monkeypatch.setenv("MEMGRAPH_PPR_ENGINE", "gds")
    config = Settings().retrieval_config(layer_search="index", fusion=None, top_k_schemas=3)
    assert (config.ppr_engine, config.layer_search, config.fusion, config.top_k_schemas) == ("gds", "index",
                                                                                              "shares", 3)


def test_connection_reads_no_environment(monkeypatch):
    # BaseSettings without a prefix read these (and a Windows or login shell sets USERNAME)
    monkeypatch.setenv("URI", "bolt://intruder:7687")
    monkeypatch.setenv("USERNAME", "intruder")
    monkeypatch.setenv("PASSWORD", "intruder-password")
    monkeypatch.setenv("DATABASE", "intruder")
    conn = Connection(uri="bolt://127.0.0.1:7687", password="right")
    assert (conn.uri, conn.username, conn.password, conn.database) == ("bolt://127.0.0.1:7687", "neo4j", "right",
                                                                     "neo4j")
    with pytest.raises(TypeError):
        Connection(password="right")  # uri is required, not taken from URI
    with pytest.raises(TypeError):
        Connection(uri="bolt://127.0.0.1:7687")  # so is the password


def test_connection_password_stays_out_of_the_repr():
    conn = Connection(uri="bolt://db:7687", username="alice", password="s3cret-4f9a", database="memory")
    for text in (repr(conn), str(conn), repr(replace(conn, uri="neo4j://db:7687"))):
        assert "s3cret-4f9a" not in text and "alice" in text and "db:7687" in text
    assert replace(conn, uri="neo4j://db:7687").password == "s3cret-4f9a"


# One bad value per setting: every MEMGRAPH_* field must be here (test_every_setting_has_a_bad_value).
BAD_VALUES = {
    "home": ("", "MEMGRAPH_HOME='' is not a path: give a folder"),
    "instance": ("  ", "MEMGRAPH_INSTANCE='  ' is not a path: give a folder"),
    "bolt_port": ("99999", "MEMGRAPH_BOLT_PORT='99999' is not a TCP port: use 1-65535"),
    "http_port": ("0", "MEMGRAPH_HTTP_PORT='0' is not a TCP port: use 1-65535"),
    "heap": ("2gb", "MEMGRAPH_HEAP='2gb' is not a memory size: use digits and k, m, g or t, such as 512m or 2g"),
    "pagecache": ("-1", "MEMGRAPH_PAGECACHE='-1' is not a memory size: use digits and k, m, g or t, such as 512m "
                  "or 2g"),
    "start_timeout": ("nan", "MEMGRAPH_START_TIMEOUT='nan' is not a timeout: use seconds > 0"),
    "maven": ("bogus", "MEMGRAPH_MAVEN='bogus' is not one of 'auto', 'fetch'"),
    "maven_repository": ("repo1.maven.org", "MEMGRAPH_MAVEN_REPOSITORY='repo1.maven.org' is not a repository URL: "
                         "use an http://, https:// or file:// URL of Maven Central or a mirror"),
    "database": ("my db", "MEMGRAPH_DATABASE='my db' is not a database name: use a letter, then letters, digits, "
                 "'.', '-' or '_' (at most 63 characters)"),
    "embedding_dimension": ("0", "MEMGRAPH_EMBEDDING_DIMENSION='0' is not a vector dimension: use an integer >= 1"),
    "llm_model": (" ", "MEMGRAPH_LLM_MODEL=' ' is not a model name: use the name of a chat model"),
    "llm_timeout": ("0", "MEMGRAPH_LLM_TIMEOUT='0' is not a timeout: use seconds > 0"),
    "llm_retries": ("-1", "MEMGRAPH_LLM_RETRIES='-1' is not a number of retries: use an integer >= 0"),
    "ppr_engine": ("fast", "MEMGRAPH_PPR_ENGINE='fast' is not one of 'local', 'gds', 'client'"),
    "layer_search": ("vector", "MEMGRAPH_LAYER_SEARCH='vector' is not one of 'local', 'index'"),
    "service_host": ("my host", "MEMGRAPH_SERVICE_HOST='my host' is not a host: use an address to listen on, such "
                     "as 127.0.0.1 (or 0.0.0.0 with tokens)"),
    "service_port": ("70000", "MEMGRAPH_SERVICE_PORT='70000' is not a TCP port: use 1-65535"),
    "service_dir": (" ", "MEMGRAPH_SERVICE_DIR=' ' is not a path: give a folder"),
    "service_max_upload_mb": ("0", "MEMGRAPH_SERVICE_MAX_UPLOAD_MB='0' is not a size in megabytes: use an integer "
                              ">= 1"),
    "service_max_body_mb": ("-5", "MEMGRAPH_SERVICE_MAX_BODY_MB='-5' is not a size in megabytes: use an integer "
                            ">= 1"),
    "service_url": ("ftp://x", "MEMGRAPH_SERVICE_URL='ftp://x' is not a service URL: use the http:// or https:// "
                    "address `memgraph-neo4j serve` printed"),
    # a secret: the message gives its length, never its text
    "service_token": ("short", "MEMGRAPH_SERVICE_TOKEN=(hidden, 5 characters) is not a token: use at least 16 "
                      "characters (`memgraph-neo4j serve --new-token` makes one)"),
}


def test_every_setting_has_a_bad_value():
    from dataclasses import fields

    assert {f.name for f in fields(Settings)} == set(BAD_VALUES)


@pytest.mark.parametrize("name", sorted(BAD_VALUES))
def test_every_setting_is_checked_where_it_is_read(monkeypatch, name):
    from memgraph_neo4j.config import SettingsError

    value, message = BAD_VALUES[name]
    monkeypatch.setenv(f"MEMGRAPH_{name.upper()}", value)
    with pytest.raises(SettingsError) as bad:
        Settings()
    assert str(bad.value) == message and "\n" not in message
    assert isinstance(bad.value, ValueError)
    monkeypatch.delenv(f"MEMGRAPH_{name.upper()}")
    with pytest.raises(SettingsError) as bad:  # the keyword argument gets the same check, under its own name
        Settings(**{name: value})
    assert str(bad.value) == message.removeprefix(f"MEMGRAPH_{name.upper()}").join([name, ""])


@pytest.mark.parametrize(("variable", "value", "expected"), [
    ("MEMGRAPH_BOLT_PORT", "65535", 65535), ("MEMGRAPH_HEAP", "512M", "512M"), ("MEMGRAPH_PAGECACHE", "1g", "1g"),
    ("MEMGRAPH_START_TIMEOUT", "0.5", 0.5), ("MEMGRAPH_MAVEN_REPOSITORY", "file:///srv/m2", "file:///srv/m2"),
    ("MEMGRAPH_DATABASE", "memory.v2-a_b", "memory.v2-a_b"), ("MEMGRAPH_PPR_ENGINE", "gds", "gds"),
])
def test_good_values_pass(monkeypatch, variable, value, expected):
    monkeypatch.setenv(variable, value)
    assert getattr(Settings(), variable.removeprefix("MEMGRAPH_").lower()) == expected


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bolt_port": 99999}, "bolt_port=99999 is not a TCP port: use 1-65535"),
    ({"bolt_port": True}, "bolt_port=True is not an integer"),
    ({"bolt_port": 7687.5}, "bolt_port=7687.5 is not an integer"),
    ({"start_timeout": float("inf")}, "start_timeout=inf is not a timeout: use seconds > 0"),
    ({"heap": 2}, "heap=2 is not a string"),
])
def test_keyword_values_of_the_wrong_kind_or_range(kwargs, message):
    with pytest.raises(ValueError) as bad:
        Settings(**kwargs)
    assert str(bad.value) == message


@pytest.mark.parametrize("args", [["stats"], ["neo4j", "status"], ["neo4j", "start"], ["neo4j", "stop"],
                                  ["query", "who?", "--space", "s"], ["spaces", "list"]])
@pytest.mark.parametrize(("variable", "value"), [("MEMGRAPH_MAVEN", "bogus"), ("MEMGRAPH_START_TIMEOUT", "x"),
                                                 ("MEMGRAPH_BOLT_PORT", "99999")])
def test_the_cli_prints_a_bad_setting_as_one_line(tmp_path, args, variable, value):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(("MEMGRAPH_", "NEO4J_"))}
    env.update({"MEMGRAPH_HOME": str(tmp_path), variable: value})
    result = subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True,
                            text=True, env=env, timeout=120)
    message = {"MEMGRAPH_MAVEN": "MEMGRAPH_MAVEN='bogus' is not one of 'auto', 'fetch'",
               "MEMGRAPH_START_TIMEOUT": "MEMGRAPH_START_TIMEOUT='x' is not a number",
               "MEMGRAPH_BOLT_PORT": "MEMGRAPH_BOLT_PORT='99999' is not a TCP port: use 1-65535"}[variable]
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"error: {message}"], result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "instance").exists()  # nothing was started or written


def test_the_api_raises_the_same_message(monkeypatch):
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.config import SettingsError

    monkeypatch.setenv("MEMGRAPH_BOLT_PORT", "99999")  # was 34463 (99999 mod 65536) for the driver
    with pytest.raises(SettingsError, match=r"^MEMGRAPH_BOLT_PORT='99999' is not a TCP port: use 1-65535$"):
        MemoryGraph(space="any", embedder=None)
