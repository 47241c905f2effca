"""The adjudication agents over a scripted chat model: validated replies, retries, recorded failures."""

from __future__ import annotations

import json

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from memgraph_neo4j.adjudication.agents import ChatClassifier, ChatResolver
from memgraph_neo4j.adjudication.model import Group, PairJudgement
from memgraph_neo4j.contracts import ConflictType, Usage, Verdict
from memgraph_neo4j.llm.chat import ChatResult, LangChainChat
from memgraph_neo4j.repository.conflicts import Candidate, EvidencePassage, FactEvidence


def fact(id_: str, tail: str) -> FactEvidence:
    return FactEvidence(id_, f"Isaac Newton birth date {tail}", "birth_date", None, "active", "newton",
                        "Isaac Newton", tail, tail, "Person", "Date", None, None,
                        (EvidencePassage(f"p-{tail}", "Newton", f"Newton was born in {tail}."),))


NEW, OLD, THIRD = fact("f1645", "1645"), fact("f1643", "1643"), fact("f1644", "1644")


def chat(*replies: str) -> LangChainChat:
    return LangChainChat(FakeListChatModel(responses=list(replies)))


def test_classifier_maps_labels_back_to_facts_and_drops_unknown_ones():
    reply = {"pairs": [{"candidate": "C1", "type": "mutual_exclusion", "confidence": 0.9, "reason": "two years"},
                       {"candidate": "C7", "type": "duplicate", "confidence": 1.0}]}
    agent = ChatClassifier(chat(json.dumps(reply)))
    [pair] = agent.classify(NEW, [(Candidate("f1645", "f1643", "functional"), OLD)])
    assert (pair.fact, pair.candidate, pair.type, pair.confidence) == ("f1645", "f1643",
                                                                       ConflictType.MUTUAL_EXCLUSION, 0.9)
    assert agent.usage.prompt_tokens > 0


def test_classifier_retries_then_records_symbolic_candidates_for_review():
    waits: list[float] = []
    agent = ChatClassifier(chat("no json here", '{"pairs": [{"candidate": "C1", "type": "sort of"}]}', "{"),
                           max_retries=2, sleep=waits.append)
    pairs = agent.classify(NEW, [(Candidate("f1645", "f1643", "functional"), OLD),
                                 (Candidate("f1645", "f1644", "similar", cosine=0.95), THIRD)])
    # the similar-only candidate is dropped; the ontology's clash is kept, at confidence 0 (review)
    assert [(p.candidate, p.type, p.confidence) for p in pairs] == [("f1643", ConflictType.MUTUAL_EXCLUSION, 0.0)]
    assert "unusable reply after 3 attempts" in pairs[0].reason and waits == [0.5, 1.0]


def test_resolver_needs_a_verdict_for_every_fact_and_valid_merge_targets():
    group = Group([NEW, OLD], [PairJudgement("f1645", "f1643", ConflictType.MUTUAL_EXCLUSION, 0.9, "", "functional")])
    good = {"verdicts": [{"fact": "F1", "verdict": "discard"}, {"fact": "F2", "verdict": "keep"}],
            "confidence": 0.9, "rationale": "1643 is better attested"}
    resolution = ChatResolver(chat(json.dumps(good))).resolve(group)
    assert [(d.fact, d.verdict) for d in resolution.decisions] == [("f1645", Verdict.DISCARD), ("f1643", Verdict.KEEP)]
    partial = {"verdicts": [{"fact": "F1", "verdict": "discard"}], "confidence": 0.9}
    bad_merge = {"verdicts": [{"fact": "F1", "verdict": "merge", "into": "F9"}, {"fact": "F2", "verdict": "keep"}],
                 "confidence": 0.9}
    failed = ChatResolver(chat(json.dumps(partial), json.dumps(bad_merge)), max_retries=1, backoff=0).resolve(group)
    assert failed.decisions == [] and "unusable reply after 2 attempts" in failed.rationale
    assert "not in the group" in failed.rationale  # the last problem is named


class Flaky:
    """Raises `errors` in turn, then answers `reply`."""

    provider, model, price = "scripted", "flaky", None

    def __init__(self, errors: list[Exception], reply: dict) -> None:
        self.errors, self.reply, self.calls = errors, reply, 0

    def complete_json(self, system: str, user: str, schema) -> ChatResult:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return ChatResult(text=json.dumps(self.reply), usage=Usage(prompt_tokens=7), model=self.model)


def test_a_failing_call_is_retried_with_the_extractions_backoff():
    reply = {"pairs": [{"candidate": "C1", "type": "mutual_exclusion", "confidence": 0.9, "reason": "two years"}]}
    waits: list[float] = []
    chat = Flaky([TimeoutError("no answer within 60s"), ConnectionError("reset")], reply)
    agent = ChatClassifier(chat, max_retries=2, sleep=waits.append)
    [pair] = agent.classify(NEW, [(Candidate("f1645", "f1643", "functional"), OLD)])
    assert (pair.type, pair.failed, chat.calls) == (ConflictType.MUTUAL_EXCLUSION, False, 3)
    assert waits == [0.5, 1.0] and agent.usage.prompt_tokens == 7  # the answer is counted


def test_a_refused_call_is_not_retried_and_goes_to_review():
    refused = PermissionError("invalid api key")
    refused.status_code = 401
    waits: list[float] = []
    chat = Flaky([refused], {})
    [pair] = ChatClassifier(chat, max_retries=3, sleep=waits.append).classify(
        NEW, [(Candidate("f1645", "f1643", "functional"), OLD)])
    assert (chat.calls, waits, pair.failed, pair.confidence) == (1, [], True, 0.0)
    assert "model call failed after 1 attempts (PermissionError: invalid api key)" in pair.reason
