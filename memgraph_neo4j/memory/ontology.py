"""Ontology: entity types, relations and memory policy, loaded from YAML.

Validation errors are reported as ``file, line N, field a.b[3].c: message`` by mapping
pydantic error locations back onto the composed YAML node tree.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from memgraph_neo4j.contracts import ConsistencyRules
from memgraph_neo4j.memory.normalize import content_hash, relation_key, type_key

__all__ = [
    "Chunking",
    "EntityType",
    "Ontology",
    "OntologyError",
    "Promotion",
    "Relation",
    "default_ontology_path",
    "load_ontology",
]

Loc = tuple[str | int, ...]

_TYPE_NAME = r"^[A-Z][A-Za-z0-9]*$"
_RELATION_NAME = r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$"


class OntologyError(ValueError):
    """Invalid ontology; ``problems`` holds (line or None, field, message) triples."""

    def __init__(self, source: str, problems: list[tuple[int | None, str, str]]):
        self.source = source
        self.problems = problems
        lines = [
            f"{source}, line {line if line is not None else '?'}, field {field or '<root>'}: {msg}"
            for line, field, msg in problems
        ]
        super().__init__("invalid ontology:\n  " + "\n  ".join(lines))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntityType(_Model):
    name: str = Field(pattern=_TYPE_NAME, description="CamelCase canonical type name")
    description: str = Field(min_length=1, description="Used to type entities by embedding similarity")
    aliases: list[str] = Field(default_factory=list)


class Relation(_Model):
    name: str = Field(pattern=_RELATION_NAME, description="lower snake_case canonical relation name")
    description: str = Field(min_length=1)
    domain: list[str] = Field(default_factory=list, description="Allowed head types; empty = any")
    range: list[str] = Field(default_factory=list, description="Allowed tail types; empty = any")
    functional: bool = False  # at most one tail per head (per time point if temporal)
    # at most one head per tail (per time point if temporal): a country has one president at a time
    inverse_functional: bool = False
    temporal: bool = False  # facts hold over a time span and can be superseded
    inverse: str | None = None
    # the head lies within the tail (Shanghai part_of China): two values of a functional relation
    # linked by a chain of these are the same answer at different granularity, not a clash
    containment: bool = False
    synonyms: list[str] = Field(default_factory=list)


class Promotion(_Model):
    """When a candidate schema is promoted into the global memory."""

    threshold: int | None = Field(default=None, ge=1, description="Absolute support count")
    percentile: float | None = Field(default=None, ge=0, lt=100, description="Drop the lowest N% by support")

    @model_validator(mode="before")
    @classmethod
    def _one_rule(cls, data: Any) -> Any:
        if isinstance(data, dict):
            given = {k for k in ("threshold", "percentile") if data.get(k) is not None}
            if len(given) == 2:
                raise ValueError("give either 'threshold' or 'percentile', not both")
            if not given:
                data = {**data, "percentile": 20.0}  # the documented default
        return data


class Chunking(_Model):
    tokens: int = Field(default=256, ge=8)
    overlap: int = Field(default=32, ge=0)

    @model_validator(mode="after")
    def _overlap_smaller(self) -> Chunking:
        if self.overlap >= self.tokens:
            raise ValueError(f"overlap ({self.overlap}) must be smaller than tokens ({self.tokens})")
        return self


class Ontology(_Model):
    version: str = "1"
    mode: Literal["strict", "open"] = "open"
    promotion: Promotion = Field(default_factory=Promotion)
    chunking: Chunking = Field(default_factory=Chunking)
    entity_types: list[EntityType] = Field(min_length=1)
    relations: list[Relation] = Field(default_factory=list)

    @field_validator("version", mode="before")
    @classmethod
    def _version_str(cls, v: Any) -> Any:
        # YAML reads `version: 1.0` as a float; accept it as the string the user wrote.
        return str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Ontology:
        # The file loader checks references itself so it can report line numbers.
        if not (info.context or {}).get("defer_references"):
            problems = self.reference_problems()
            if problems:
                loc, msg = problems[0]
                raise ValueError(f"{_format_loc(loc)}: {msg}")
        return self

    def reference_problems(self) -> list[tuple[Loc, str]]:
        """Duplicate names/aliases/synonyms and dangling domain/range/inverse references."""
        problems: list[tuple[Loc, str]] = []
        types: dict[str, str] = {}  # type_key -> canonical name
        for i, t in enumerate(self.entity_types):
            for j, label in enumerate([t.name, *t.aliases]):
                loc: Loc = ("entity_types", i, "name") if j == 0 else ("entity_types", i, "aliases", j - 1)
                key = type_key(label)
                if not key:
                    problems.append((loc, f"empty type name or alias {label!r}"))
                elif types.get(key, t.name) != t.name:
                    problems.append((loc, f"{label!r} is already used by type {types[key]!r}"))
                elif j == 0 and key in types:
                    problems.append((loc, f"duplicate type name {label!r}"))
                types.setdefault(key, t.name)
        names = {t.name for t in self.entity_types}
        rel_names = [r.name for r in self.relations]
        phrases: dict[str, str] = {}
        for i, r in enumerate(self.relations):
            if rel_names.index(r.name) != i:
                problems.append((("relations", i, "name"), f"duplicate relation name {r.name!r}"))
            for field in ("domain", "range"):
                for j, ref in enumerate(getattr(r, field)):
                    if ref not in names:
                        hint = f" (did you mean {types[type_key(ref)]!r}?)" if type_key(ref) in types else ""
                        problems.append((("relations", i, field, j), f"unknown entity type {ref!r}{hint}"))
            if r.inverse is not None and r.inverse not in rel_names:
                problems.append((("relations", i, "inverse"), f"unknown relation {r.inverse!r}"))
            elif r.inverse is not None:
                other = self.relations[rel_names.index(r.inverse)]
                if other.inverse not in (None, r.name):
                    problems.append(
                        (("relations", i, "inverse"), f"{r.inverse!r} declares inverse {other.inverse!r}, not {r.name!r}")
                    )
            for j, phrase in enumerate([r.name, *r.synonyms]):
                key = relation_key(phrase)
                loc = ("relations", i, "synonyms", j - 1) if j else ("relations", i, "name")
                if not key:
                    problems.append((loc, f"empty synonym {phrase!r}"))
                elif phrases.get(key, r.name) != r.name:
                    problems.append((loc, f"{phrase!r} already normalises to relation {phrases[key]!r}"))
                phrases.setdefault(key, r.name)
        return problems

    # -- lookups (cached: the model is frozen) ---------------------------------------------

    @cached_property
    def type_lookup(self) -> dict[str, str]:
        """type_key(name or alias) -> canonical type name."""
        out: dict[str, str] = {}
        for t in self.entity_types:
            for label in (t.name, *t.aliases):
                out.setdefault(type_key(label), t.name)
        return out

    @cached_property
    def relation_lookup(self) -> dict[str, str]:
        """relation_key(name or synonym) -> canonical relation name."""
        out: dict[str, str] = {}
        for r in self.relations:
            for phrase in (r.name, *r.synonyms):
                out.setdefault(relation_key(phrase), r.name)
        return out

    @cached_property
    def version_hash(self) -> str:
        """Hash of the normalised content (comments and formatting do not matter), for lineage."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return content_hash("ontology", canonical)

    def entity_type(self, name: str) -> EntityType | None:
        return next((t for t in self.entity_types if t.name == name), None)

    def relation(self, name: str) -> Relation | None:
        return next((r for r in self.relations if r.name == name), None)

    def consistency_rules(self) -> ConsistencyRules:
        """The declarations conflict detection runs on (cypher/adjudication/symbolic_candidates)."""
        by_name = {r.name: r for r in self.relations}
        functional = [r.name for r in self.relations if r.functional]
        # a relation whose inverse is functional is inverse-functional (capital_of: has_capital)
        inverse_functional = [r.name for r in self.relations if r.inverse_functional
                              or (r.inverse in by_name and by_name[r.inverse].functional)]
        inverses = [[r.name, r.inverse] for r in self.relations if r.inverse and r.inverse != r.name]
        return ConsistencyRules(functional=sorted(functional), inverse_functional=sorted(inverse_functional),
                                inverse_pairs=inverses, temporal=sorted(r.name for r in self.relations if r.temporal),
                                containment=sorted(r.name for r in self.relations if r.containment))


# -- loading -------------------------------------------------------------------------------


def default_ontology_path() -> Path:
    """Packaged ontology (wheel installs) first, then the repository's top-level file."""
    package_dir = Path(__file__).resolve().parents[1]
    for candidate in (package_dir / "_ontology" / "ontology.yaml", package_dir.parent / "ontology.yaml"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"no default ontology.yaml next to {package_dir} or in its parent")


def load_ontology(path: str | Path | None = None) -> Ontology:
    """Load and validate an ontology YAML file (None: the packaged default)."""
    path = Path(path) if path is not None else default_ontology_path()
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"ontology file not found: {source}") from None
    return parse_ontology(text, source=source)


def parse_ontology(text: str, source: str = "<string>") -> Ontology:
    """Validate ontology YAML text; errors carry ``source`` and line numbers."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise OntologyError(source, [(line, "", f"YAML syntax error: {getattr(exc, 'problem', exc)}")]) from None
    if root is None or data is None:
        raise OntologyError(source, [(1, "", "the ontology file is empty")])
    if dupes := _duplicate_keys(root):
        raise OntologyError(source, dupes)
    try:
        ontology = Ontology.model_validate(data, context={"defer_references": True})
    except ValidationError as exc:
        problems = [(_line_of(root, err["loc"]), _format_loc(err["loc"]), err["msg"]) for err in exc.errors()]
        raise OntologyError(source, problems) from None
    if problems := ontology.reference_problems():
        raise OntologyError(source, [(_line_of(root, loc), _format_loc(loc), msg) for loc, msg in problems])
    return ontology


def _format_loc(loc: Loc) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line_of(root: yaml.Node, loc: Loc) -> int:
    """1-based line of the deepest YAML node on the path ``loc`` (the key's line for mappings)."""
    node, line = root, root.start_mark.line + 1
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break  # e.g. a missing field: report the enclosing mapping
            node, line = match[1], match[0].start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _duplicate_keys(node: yaml.Node, path: Loc = ()) -> list[tuple[int | None, str, str]]:
    # PyYAML silently keeps the last duplicate key; in a config that hides mistakes.
    out: list[tuple[int | None, str, str]] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for k, v in node.value:
            if k.value in seen:
                out.append((k.start_mark.line + 1, _format_loc((*path, k.value)), f"duplicate key {k.value!r}"))
            seen.add(k.value)
            out += _duplicate_keys(v, (*path, k.value))
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out += _duplicate_keys(v, (*path, i))
    return out
