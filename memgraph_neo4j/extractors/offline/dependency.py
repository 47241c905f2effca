"""Relations from spaCy's dependency parse of one sentence: who did what to whom.

What it reads (ClearNLP labels of the English spaCy pipelines):

- subject-verb-object and subject-verb-preposition-object, particles included ("set up"), with the
  passive turned round ("Jaws was directed by Spielberg" -> ``(Jaws, directed_by, Spielberg)``,
  an unlisted verb -> ``(agent, verb, patient)``) and a subject found through relative clauses
  ("X, who was born in Y"), participles ("a film directed by Y"), coordinated verbs ("was born in Y
  and died in Z") and leading participles ("Born in Y, X ...");
- copulas and appositions with a relational noun ("X is the capital of Y", "X, a village in Y",
  "X served as president of Y", "X is a song by Y");
- a preposition between two places ("Springfield in Illinois");
- coordination on either side ("X and Y founded Z", "directed by X and Y").

Arguments must be mentions: a named entity, a date, a proper-noun phrase the NER missed (added as
a new mention, a span of the text), or he/she/it standing for the chunk's topic when the topic is
the subject of the first sentence. Relations go through ``verbs.PHRASES`` to the ontology's names;
the rest stay normalised phrases (``stay_in``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memgraph_neo4j.extractors.offline.arguments import COPULAS, NEAR, SUBJ, Arguments, such_as
from memgraph_neo4j.extractors.offline.attachment import in_place_phrase, outer_noun
from memgraph_neo4j.extractors.offline.borders import border_facts
from memgraph_neo4j.extractors.offline.casting import known_for_role, playing_facts, role_facts, star_facts
from memgraph_neo4j.extractors.offline.members import member_facts
from memgraph_neo4j.extractors.offline.ner import Mention
from memgraph_neo4j.extractors.offline.nominals import work_maker, work_year
from memgraph_neo4j.extractors.offline.one_of import one_of_facts
from memgraph_neo4j.extractors.offline.patterns import NP_OF_SKIP, PLACE_NOUNS
from memgraph_neo4j.extractors.offline.relatives import relative_facts
from memgraph_neo4j.extractors.offline.under_name import under_name
from memgraph_neo4j.extractors.offline.verbs import (
    AWARD_WORDS,
    DATE_RELATIONS,
    INSTITUTIONS,
    MUSICIANS,
    NOUN_BY,
    NOUN_OF,
    PHRASES,
    SKIP_LEMMAS,
    Mapped,
)
from memgraph_neo4j.memory.normalize import normalize_relation, relation_key
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.timespan import time_interval

__all__ = ["DepFact", "DependencyRelations"]

TIME_PREPS = frozenset({"in", "on", "from", "since", "during", "until", "till", "between"})
END_PREPS = frozenset({"to", "until", "till", "through"})  # the end of a range: "from 1975 to 1979"
AS_VERBS = frozenset({"serve", "work", "act", "function", "remain"})  # "X served as president of Y"
# "a town in the north of Y", "a village in the district of Y": the place is Y
_PASS_THROUGH = PLACE_NOUNS | {"north", "south", "east", "west", "centre", "center", "heart", "outskirts", "part"}
# a person's role noun with these prepositions and an organisation: its employer, its party or team
ROLE_PREPS = {"at": "employed_by", "from": "member_of"}
BANDS = frozenset("band group duo trio quartet quintet ensemble orchestra choir".split())  # the NER calls bands persons
CONFIDENT = frozenset({"Person", "Place", "Date"})  # NER labels the relation's domain/range may overrule with


@dataclass(frozen=True)
class DepFact:
    head: Mention
    relation: str
    tail: Mention
    time: str | None = None


class DependencyRelations:
    """Facts of one sentence from its parse; relation names are the ontology's or normalised phrases."""

    def __init__(self, ontology: Ontology) -> None:
        self.ontology = ontology
        self._relations = {r.name for r in ontology.relations}
        dated = ontology.relation("publication_date")
        self._work_types = frozenset(dated.domain if dated is not None else ())

    def sentence_facts(self, sent: Any, args: Arguments) -> list[DepFact]:
        out = [self._fact(h, r, t, None) for h, r, t in border_facts(sent, args)]  # "It borders with A, B"
        for tok in sent:
            if any(c.dep_ == "neg" for c in tok.children):
                continue  # "X was not born in Y"
            if tok.lemma_ in COPULAS and any(c.dep_ == "attr" for c in tok.children):
                out += self._copula(tok, args)
            elif tok.pos_ == "VERB":  # "known for playing P on X": the gerund has no subject of its own
                out += self._verb(tok, args) + [self._fact(h, r, t, None) for h, r, t in playing_facts(tok, args)]
            elif tok.dep_ == "appos" and tok.pos_ == "NOUN" and tok.head.dep_ != "attr":  # "He is an M.P., a man"
                heads = [m for m in args.resolve(tok.head) if m.kind == "name"]
                out += self._nominal(tok, heads, args) + self._class(tok, heads, args)
            elif tok.dep_ == "appos" and tok.pos_ == "PROPN" and tok.i not in args.of and self._role(tok):
                out += self._nominal(tok, [m for m in args.resolve(tok.head) if m.kind == "name"], args)
            elif tok.dep_ == "prep" and tok.lower_ in ("in", "at", "of"):  # "the X Region of the Y Territories"
                out += self._place_in_place(tok, args)
            if tok.pos_ == "NUM":  # "X, one of the fifty-nine in Altai Krai"
                out += [self._fact(h, r, t, None) for h, r, t in one_of_facts(tok, args)]
            if tok.pos_ == "NOUN" and self._work_types:
                out += [self._fact(h, r, t, None) for h, r, t in (*work_year(tok, args, self._work_types),
                                                                  *work_maker(tok, args)) if self._typed(r, h, t)]
            if tok.pos_ == "NOUN":  # "X's brother Y", "X and wife Y"; "her role as P in X"; "its members were A, B"
                out += [self._fact(h, r, t, None) for h, r, t in (*relative_facts(tok, args), *role_facts(tok, args),
                                                                  *member_facts(tok, args)) if self._typed(r, h, t)]
        return [f for f in out if f.relation in self._relations or not (f.head.by_kind or f.tail.by_kind)]

    # -- verbs ---------------------------------------------------------------------------------

    def _subjects(self, v: Any, depth: int = 0) -> tuple[list[Any], bool]:
        subs = [c for c in v.children if c.dep_ in SUBJ]
        passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in v.children)
        if subs or depth > 3:
            return subs, passive
        if v.dep_ in ("relcl", "acl"):  # "Y, founded in 1990", "a film directed by X"
            if v.dep_ == "acl" and in_place_phrase(v.head):  # "a school in Manhattan, New York established
                outer = outer_noun(v.head)  # in 1876": the school, not New York
                return [outer] if outer is not None else [], passive or v.tag_ == "VBN"
            return [v.head] if 0 < v.i - v.head.i <= NEAR else [], passive or v.tag_ == "VBN"
        if v.dep_ in ("conj", "xcomp", "advcl") and v.head.pos_ in ("VERB", "AUX"):
            if v.dep_ == "advcl" and v.tag_ not in ("VBN", "VBG"):
                return [], passive  # "after X left, Y ...": another subject
            heads, head_passive = self._subjects(v.head, depth + 1)
            if v.dep_ == "conj":
                return heads, passive or (head_passive and v.tag_ == "VBN")
            return heads, passive or (v.dep_ == "advcl" and v.tag_ == "VBN")
        return [], passive

    def _verb(self, v: Any, args: Arguments) -> list[DepFact]:
        deps = {c.dep_ for c in v.children}
        if "nsubj" in deps and not deps & {"aux", "auxpass"} and (v.tag_ == "VBN" or "agent" in deps):
            return []  # a participle (one with "by") has no subject without have/be: "a school in X, Y established"
        subj_toks, passive = self._subjects(v)
        subjects = [m for s in subj_toks for m in args.expand(s) if m.kind == "name"]
        # the subject of the verb (or of the verb it is coordinated with), named in place: the surest attachment
        chain, u = {v.i}, v
        while u.dep_ == "conj" and u.head.i != u.i:
            u = u.head
            chain.add(u.i)
        direct = all(s.dep_ in SUBJ and s.head.i in chain and s.i in args.of for s in subj_toks)
        if not subjects:
            return []
        # "a biopic about Amy Johnson, directed by X": when the relation's types rule out the name the
        # participle hangs on, it is about the noun that name's phrase modifies
        outer = outer_noun(u.head) if u.dep_ == "acl" and not in_place_phrase(u.head) else None
        alt = [m for m in args.expand(outer) if m.kind == "name"] if outer is not None else []
        lemma = " ".join([v.lemma_.lower(), *(c.lower_ for c in v.children if c.dep_ == "prt")])
        dobjs = [c for c in v.children if c.dep_ in ("dobj", "oprd")]
        light = next((c for c in dobjs if c.lemma_ in ("part", "place") and c.i not in args.of), None)
        if light is not None:  # "took part in", "took place in"
            lemma, dobjs = f"{lemma} {light.lemma_}", []
        aliases, used = under_name(v, subjects, args)  # "sold under the name "X"": X is no object of "sold"
        dobjs = [c for c in dobjs if c.i not in used]
        objects: list[tuple[str, Any]] = [("", c) for c in dobjs]
        for c in v.children:
            if c.dep_ in ("prep", "agent"):
                objects += [(c.lower_, g) for g in c.children if g.dep_ == "pobj"]
        objects = [(p, o) for p, o in objects if o.i not in used]  # "under the name X": an alias, above
        objects += [(p, g) for p, o in objects if o.i not in args.of for g in such_as(o)]  # "films such as X"
        if not objects:  # "directed and produced by X": the agent of the next participle is this one's too
            objects += [("by", g) for c in v.children if c.dep_ == "conj" and c.tag_ == "VBN"
                        for a in c.children if a.dep_ == "agent" for g in a.children if g.dep_ == "pobj"]
        time = self._time(v, objects, args)
        patients = [m for _, o in objects[: len(dobjs)] for m in args.expand(o) if m.kind == "name"]
        # "X blocks cold winds from Y": with an unnamed object, a prepositional phrase is about the object
        open_ok = not dobjs or bool(patients)
        # "The film stars A, B": actors, whatever the NER called one (Morgan Freeman a place: MuSiQue's Red)
        out = [self._fact(h, r, t, None) for h, r, t in star_facts(v, subjects, args)
               if self._typed(r, h, t) or (r == "cast_member" and self._retype(r, h, t, tail_only=True))]
        out += [self._fact(h, r, t, None) for h, r, t in aliases]
        for prep, o in objects:
            if prep == "as" and (v.lemma_ == "star" or known_for_role(v)):  # "stars A as P": casting.py
                continue
            if prep == "as" and o.pos_ == "NOUN" and v.lemma_ in AS_VERBS and o.i not in args.of:
                out += self._nominal(o, subjects, args)
                continue
            for tail in args.expand(o):
                if tail.kind == "date":
                    out += self._dated(v, lemma, prep, passive, subjects, patients, bool(dobjs), tail) or \
                        self._dated(v, lemma, prep, passive, alt, alt, False, tail)
                elif tail.kind == "name" and tail.ref is None:
                    for head in subjects:
                        fact = self._phrase_fact(v, lemma, prep, passive, head, tail, time, open_ok or not prep, direct)
                        if fact is None:  # only the ontology's relations, whose types told the two apart
                            fact = next((f for h in alt if h is not tail and (f := self._phrase_fact(
                                v, lemma, prep, passive, h, tail, time, False)) is not None), None)
                        out += [fact] if fact is not None else []
        return out

    def _time(self, v: Any, objects: list[tuple[str, Any]], args: Arguments) -> str | None:
        """The verb's time qualifier, as the text says it (memory/timespan.py reads it): its first dated
        phrase; "until 2001" keeps its word (an end, not a start); a range the parse split in two keeps
        both ends ("from 1975" and "to 1979", the NER's "1975" and "1979": "1975 to 1979")."""
        dated = [(prep, o, m) for prep, o in objects if prep in TIME_PREPS for m in args.resolve(o) if m.kind == "date"]
        if not dated:
            return None
        prep, o, first = dated[0]
        if prep in ("until", "till"):
            return f"until {first.text}"
        if prep == "between" and not first.text.lower().startswith("between"):
            ends = [c for c in o.conjuncts if c.i > o.i]
            return f"between {first.text} and {ends[0].text}" if ends else first.text
        if prep != "from" or time_interval(first.text)[1] is not None:
            return first.text  # one date, or the NER's span already holds the range ("1979 to 1986")
        # the end: a "to" phrase on the verb after "from", or on "from" itself, whose object is a date
        for end_prep in [c for c in (*o.head.children, *v.children) if c.dep_ == "prep" and c.i > o.i]:
            if end_prep.lower_ not in END_PREPS:
                continue
            for g in end_prep.children:
                if g.dep_ == "pobj" and (dates := [m.text for m in args.resolve(g) if m.kind == "date"] or
                                         ([g.text] if g.like_num and len(g.text) == 4 else [])):
                    return f"{first.text} to {dates[0]}"
        return first.text

    def _phrase_fact(self, v: Any, lemma: str, prep: str, passive: bool, subject: Mention, obj: Mention,
                     time: str | None, open_ok: bool = True, direct: bool = False) -> DepFact | None:
        if prep == "by" and (passive or v.dep_ in ("acl", "relcl")):
            phrase, agent, patient = lemma, obj, subject  # turned round to the active voice
        elif passive:
            phrase, agent, patient = " ".join(filter(None, [v.lower_, prep])), subject, obj  # "born in"
        else:
            phrase, agent, patient = " ".join(filter(None, [lemma, prep])), subject, obj
        if phrase == "bear to" or phrase == "born to":
            return self._fact(subject, "child_of", obj, None)
        mapped = PHRASES.get(phrase) or (PHRASES.get(f"{lemma} {prep}") if passive and prep != "by" else None)
        if mapped is not None:
            head, tail = (patient, agent) if mapped.reverse else (agent, patient)
            if not (self._typed(mapped.relation, head, tail) or direct and self._retype(mapped.relation, head, tail)):
                return None  # "a film about Amy Johnson, directed by ...": the parse attached it to the wrong noun
            if self._fits(mapped, agent, patient):
                return self._fact(head, mapped.relation, tail, time)
        if (rel := normalize_relation(phrase, self.ontology)) in self._relations and mapped is None:
            return self._fact(agent, rel, patient, time) if self._typed(rel, agent, patient) else None
        if not open_ok or v.lemma_.lower() in SKIP_LEMMAS or not v.lemma_.isalpha():
            return None
        return self._fact(agent, relation_key(phrase), patient, time)

    def _dated(self, v: Any, lemma: str, prep: str, passive: bool, subjects: list[Mention],
               patients: list[Mention], has_object: bool, date: Mention) -> list[DepFact]:
        """'X was founded in 1990', 'Y founded X in 1990' -> (X, inception, 1990)."""
        rel = next((DATE_RELATIONS[p] for p in (f"{v.lower_} {prep}", f"{lemma} {prep}", v.lower_, lemma)
                    if p in DATE_RELATIONS), None)
        if rel is None:
            return []  # the date only qualifies the verb's other facts
        heads = subjects if passive or not has_object else patients
        return [self._fact(h, rel, date, None) for h in heads if self._typed(rel, h, date)]

    def _fits(self, mapped: Mapped, agent: Mention, patient: Mention) -> bool:
        if mapped.tail_award and not (patient.label == "Award" or AWARD_WORDS.search(patient.text)):
            return False
        head, tail = (patient, agent) if mapped.reverse else (agent, patient)
        if mapped.known_head and head.target.label not in mapped.head_types:
            return False
        for m, allowed in ((head.target, mapped.head_types), (tail, mapped.tail_types)):
            if allowed and m.label is not None and m.label not in allowed:
                return False
        return True

    def _typed(self, relation: str, head: Mention, tail: Mention) -> bool:
        """False when a reliable NER type (person, place, date) contradicts the relation's domain/range."""
        r = self.ontology.relation(relation)
        if r is None:
            return True
        return not any(allowed and m.target.label in CONFIDENT and m.target.label not in allowed
                       for m, allowed in ((head, r.domain), (tail, r.range)))

    def _retype(self, relation: str, head: Mention, tail: Mention, tail_only: bool = False) -> bool:
        """'Taxi Driver was directed by X', Taxi Driver tagged PERSON: the verb knows better if it allows one type."""
        r = self.ontology.relation(relation)
        clashes = [(m.target, allowed) for m, allowed in ((head, r.domain), (tail, r.range))
                   if r is not None and allowed and m.target.label in CONFIDENT and m.target.label not in allowed]
        if not clashes or any(len(allowed) != 1 or (tail_only and m is head.target) for m, allowed in clashes):
            return False
        for m, allowed in clashes:
            m.label = allowed[0]
        return True

    def _fact(self, head: Mention, relation: str, tail: Mention, time: str | None) -> DepFact:
        r = self.ontology.relation(relation)
        keep_time = r is None or r.temporal  # an open relation, or a temporal one, takes the date
        return DepFact(head, relation, tail, time if keep_time else None)

    # -- copulas, appositions, places ------------------------------------------------------------

    def _copula(self, v: Any, args: Arguments) -> list[DepFact]:
        subj_toks, _ = self._subjects(v)
        heads = [m for s in subj_toks for m in args.expand(s) if m.kind == "name"]
        out: list[DepFact] = []
        for a in (c for c in v.children if c.dep_ == "attr"):
            for noun in (a, *a.conjuncts):
                if noun.pos_ == "NOUN" and noun.i not in args.of:
                    out += self._nominal(noun, heads, args) + self._class(noun, heads, args, a)
        return out

    def _class(self, noun: Any, heads: list[Mention], args: Arguments, lead: Any = None) -> list[DepFact]:
        """'X is an American jazz vibraphonist(, percussionist and composer)' -> instance_of classes.

        Only after an indefinite article (on the noun or the first of its conjuncts): "the capital"
        is a role, not a class. The class is the noun with at most three modifiers before it.
        """
        det = [c for c in (lead if lead is not None else noun).children if c.dep_ == "det"]
        if not heads or not det or det[0].lower_ not in ("a", "an") or not noun.text.isalpha() \
                or noun.text != noun.lower_ or noun.lemma_.lower() in NP_OF_SKIP:
            return []
        words = [noun]
        for t in reversed(noun.doc[noun.left_edge.i : noun.i]):
            if t.dep_ not in ("amod", "compound", "npadvmod", "punct", "nmod") or t.text in ",(" or \
                    (t.i in args.of and args.of[t.i].label != "Group") or sum(w.dep_ != "punct" for w in words) == 4:
                break
            words.insert(0, t)
        while words and (not words[0].text[0].isalnum() or words[0].like_num):
            words.pop(0)
        start, end = words[0].idx, noun.idx + len(noun)
        cls = Mention(start, end, noun.doc.text[start:end], "class")
        return [DepFact(h, "instance_of", cls) for h in heads]

    def _nominal(self, noun: Any, heads: list[Mention], args: Arguments) -> list[DepFact]:
        """'(X is) the capital of Y', '(X,) a village in Y', '(X is) a song by Y'."""
        if not heads:
            return []
        words = [c.lower_ for c in noun.lefts if c.dep_ == "compound" and c.pos_ == "NOUN"] + [noun.lower_]
        article = any(c.dep_ == "det" for c in noun.children)
        out: list[DepFact] = []
        for p in (c for c in noun.children if c.dep_ == "prep"):
            for pobj in (g for g in p.children if g.dep_ == "pobj"):
                rel = self._noun_relation(words, noun.lemma_.lower(), p.lower_, article)
                if rel is None and p.lower_ in ROLE_PREPS:  # "a physicist at Fermilab", "a politician from the X Party"
                    # the NER reads "Sam Houston State University" as a person: the name's last word knows better
                    out += [self._fact(h, ROLE_PREPS[p.lower_], t, None) for t in self._noun_objects(pobj, args, False)
                            if "Organization" in (t.label, args.type_of(t.text))
                            for h in heads if h.target.label == "Person"]
                if rel is None:
                    continue
                relation, reverse = rel
                tails = self._noun_objects(pobj, args, relation == "located_in")
                if relation == "located_in" and noun.lemma_.lower() not in PLACE_NOUNS:  # "a school in Y": Y a place
                    tails = [t for t in tails if t.target.label == "Place"]
                if relation == "member_of" and not any(w.lemma_.lower() in BANDS for w in pobj.subtree):
                    tails = [t for t in tails if t.target.label != "Person"]  # "a pianist for Ella Fitzgerald"
                for tail in tails:
                    if tail.start <= noun.idx < tail.end:  # the noun is a word of the name ("Islands in the Stream")
                        continue
                    out += [self._fact(tail, relation, h, None) if reverse else self._fact(h, relation, tail, None)
                            for h in heads]
        return out

    @staticmethod
    def _noun_objects(pobj: Any, args: Arguments, place: bool) -> list[Mention]:
        tails = [m for m in args.expand(pobj) if m.kind == "name" and m.ref is None]
        if not tails and place and pobj.lemma_.lower() in _PASS_THROUGH:  # "in the north of Y"
            for p in (c for c in pobj.children if c.dep_ == "prep" and c.lower_ == "of"):
                tails += [m for g in p.children if g.dep_ == "pobj"
                          for m in args.expand(g) if m.kind == "name" and m.ref is None]
        return tails

    def _noun_relation(self, words: list[str], lemma: str, prep: str, article: bool) -> tuple[str, bool] | None:
        if lemma in MUSICIANS and prep in ("of", "for", "with", "in"):  # "the lead guitarist for the band Y"
            return "member_of", False
        if prep == "of":
            if lemma in NOUN_OF:
                return NOUN_OF[lemma]
            if lemma == "capital":
                return "capital_of", False
            for k in range(len(words)):  # "prime minister of" -> leader_of, "son of" -> child_of
                rel = normalize_relation(" ".join(words[k:]) + " of", self.ontology)
                if rel in self._relations:
                    return rel, False
            if lemma in PLACE_NOUNS:
                return "located_in", False
            if lemma in NP_OF_SKIP or not article or not lemma.isalpha():
                return None
            return relation_key(f"{lemma} of"), False
        if prep in ("in", "on", "within", "near") and (lemma in PLACE_NOUNS or lemma in INSTITUTIONS):
            return "located_in", False
        if prep == "by" and lemma in NOUN_BY:
            return NOUN_BY[lemma], False
        return None

    def _role(self, tok: Any) -> bool:
        """A capitalised role noun of the ontology's relations ("Governor of", "President of")."""
        return normalize_relation(f"{tok.lower_} of", self.ontology) in self._relations - {"located_in", "part_of"}

    def _place_in_place(self, prep: Any, args: Arguments) -> list[DepFact]:
        """'Springfield in Illinois': a preposition right between two places."""
        head = args.of.get(prep.head.i)
        if head is None or head.label != "Place":
            return []
        tails = [m for g in prep.children if g.dep_ == "pobj" for m in args.expand(g)]
        return [self._fact(head, "located_in", t, None) for t in tails if t.label == "Place" and t is not head]
