"""The eval questions are not the examples the engine was taught with (issue #22, point 6).

A model that reads a few-shot example in its prompt and is then asked the same question is
scored on recall, not on answering; an offline analyst whose docstrings quote the eval's
questions was written against them. So every question of tests/eval/ must differ from every
text a model reads in engine/agents/prompts/ (persona, scope, tasks, format, examples) and
from every string, docstring and comment of engine/offline/: not the same, not one inside
the other, and not a near-verbatim twin. Cue lists (short stems the offline router matches)
are too short to be a question, so they never count; a longer text must differ in wording.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

from engine.agents.prompts import PROMPTS
from tests.eval.harness import BLIND, BLIND2, HOLDOUT, QUESTIONS, load_questions

ROOT = Path(__file__).resolve().parents[1]
OFFLINE = ROOT / "engine" / "offline"

# A text inside another counts from this size: "plano nacional de alocação" (a name the
# offline router strips) or "reduzir as emissões" (a cue) may sit inside a question.
CONTAINED_MIN_WORDS = 5
CONTAINED_MIN_CONTENT = 3
# Twins: the same content words in another order, a few swapped (Jaccard), nearly all of the
# shorter's words inside the longer one of about its size, or a long run of the same words.
JACCARD = 0.8
OVERLAP = 0.8
OVERLAP_MIN_CONTENT = 5
OVERLAP_MAX_RATIO = 2.0
NGRAM = 6
NGRAM_MIN_CONTENT = 3


def normalise(text: str) -> str:
    """Casefolded, accents and punctuation gone, one space between words (CO₂ reads co2)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[\W_]+", " ", bare).split())


def _content(word: str) -> bool:
    return len(word) >= 3 and not word.isdigit()


@dataclass(frozen=True)
class Text:
    origin: str  # where it comes from, for the report
    raw: str

    @cached_property
    def words(self) -> tuple[str, ...]:
        return tuple(normalise(self.raw).split())

    @cached_property
    def padded(self) -> str:
        return f" {' '.join(self.words)} "

    @cached_property
    def content(self) -> frozenset[str]:
        return frozenset(w for w in self.words if _content(w))

    @cached_property
    def ngrams(self) -> frozenset[tuple[str, ...]]:
        grams = (self.words[i : i + NGRAM] for i in range(len(self.words) - NGRAM + 1))
        return frozenset(g for g in grams if sum(map(_content, g)) >= NGRAM_MIN_CONTENT)


def _containable(text: Text) -> bool:
    return len(text.words) >= CONTAINED_MIN_WORDS and len(text.content) >= CONTAINED_MIN_CONTENT


def overlap(question: Text, example: Text) -> str | None:
    """How ``question`` copies ``example``, or None when they are apart."""
    if not question.words or not example.words:
        return None
    if question.words == example.words:
        return "the same"
    if _containable(example) and example.padded in question.padded:
        return "contains the example"
    if _containable(question) and question.padded in example.padded:
        return "is inside the example"
    a, b = question.content, example.content
    shared = a & b
    if min(len(a), len(b)) >= 3 and len(shared) / len(a | b) >= JACCARD:
        return f"twin: Jaccard {len(shared) / len(a | b):.2f}"
    small, large = sorted((len(a), len(b)))
    if (
        small >= OVERLAP_MIN_CONTENT
        and large <= OVERLAP_MAX_RATIO * small
        and len(shared) / small >= OVERLAP
    ):
        return f"twin: {len(shared)} of {small} words shared"
    common = question.ngrams & example.ngrams
    if common:
        return f"twin: shares {' '.join(min(common))!r}"
    return None


# --- what the eval asks -----------------------------------------------------------------------

EVAL_SETS = (QUESTIONS, HOLDOUT, BLIND, BLIND2)


def eval_questions() -> list[Text]:
    return [Text(f"{path.name}:{q.id}", q.text) for path in EVAL_SETS for q in load_questions(path)]


# --- what the engine was taught with ----------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.?!:;])\s+")
# A quoted utterance inside a longer text: "…", “…”, '…' (not an apostrophe: "user's").
_QUOTED = re.compile(r"\"([^\"]{8,}?)\"|“([^”]{8,}?)”|(?<![\w])'([^']{8,}?)'(?![\w])")


def pieces(origin: str, text: str) -> list[Text]:
    """The text, each of its lines and sentences, and each utterance it quotes: an example
    question sits inside a longer text ("Pergunta do usuário: …", a docstring's quote), and
    a docstring's sentence runs over its lines."""
    flat = " ".join(text.split())
    parts = {text, *text.splitlines(), *_SENTENCE_END.split(flat)}
    parts |= {next(g for g in m.groups() if g) for m in _QUOTED.finditer(flat)}
    return [Text(origin, part) for part in parts if part.strip()]


def prompt_texts() -> list[Text]:
    """Everything a model reads of its prompt module, examples rendered as it reads them."""
    texts = []
    for agent, prompt in PROMPTS.items():
        fields = {"persona": prompt.persona, "scope": prompt.scope,
                  "format": prompt.response_format}  # fmt: skip
        fields |= {f"task {i}": task for i, task in enumerate(prompt.tasks, start=1)}
        for i, example in enumerate(prompt.examples, start=1):
            fields[f"example {i} request"] = example.request
            fields[f"example {i} answer"] = example.answer
        for name, text in fields.items():
            texts += pieces(f"prompt {agent}, {name}", text)
    return texts


def offline_texts() -> list[Text]:
    """Every string constant (docstrings, answer templates, cue lists) and every comment of
    the offline analyst's modules."""
    texts = []
    for path in sorted(OFFLINE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = f"engine/offline/{path.name}"
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts += pieces(f"{where}:{node.lineno}", node.value)
        for line, comment in _comments(source):
            texts += pieces(f"{where}:{line} (comment)", comment)
    # The example utterances the router ranks questions against (data/intents.toml).
    for path in sorted((OFFLINE / "data").glob("*.toml")):
        with path.open("rb") as handle:
            for intent, by_lang in tomllib.load(handle).items():
                for lang, utterances in by_lang.items():
                    for utterance in utterances:
                        where = f"engine/offline/data/{path.name}:{intent}.{lang}"
                        texts += pieces(where, utterance)
    return texts


def _comments(source: str) -> list[tuple[int, str]]:
    """Comments, those on consecutive lines joined: a quoted example runs over them."""
    blocks: list[tuple[int, int, list[str]]] = []  # first line, last line, texts
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        line, text = token.start[0], token.string.lstrip("#").strip()
        if blocks and blocks[-1][1] == line - 1:
            blocks[-1] = (blocks[-1][0], line, [*blocks[-1][2], text])
        else:
            blocks.append((line, line, [text]))
    return [(first, " ".join(texts)) for first, _, texts in blocks]


def offences(questions: list[Text], examples: list[Text]) -> list[str]:
    """One line per question and example text that copies it, naming the closest piece."""
    found: dict[tuple[str, str], tuple[int, str]] = {}
    for question in questions:
        for example in examples:
            how = overlap(question, example)
            key = (question.origin, example.origin)
            if how is not None and (key not in found or len(example.raw) < found[key][0]):
                line = (f"{question.origin} {how}: {question.raw!r}\n    ~ {example.origin}: "
                        f"{' '.join(example.raw.split())!r}")  # fmt: skip
                found[key] = (len(example.raw), line)
    return sorted(line for _, line in found.values())


# --- the checker itself: it must catch copies and leave different wording alone ----------------


@pytest.mark.parametrize(
    ("question", "example", "caught"),
    [
        ("Com o que posso substituir o HFC-134a dos nossos chillers?",
         "com o que posso substituir o hfc 134a dos nossos chillers", True),
        ("O que significam os selos Bronze, Prata e Ouro do Programa Brasileiro GHG Protocol?",
         "O que significam os selos Bronze, Prata e Ouro do Programa Brasileiro?", True),
        ("How much did our diesel truck fleet emit last year?",
         "how much did our fleet emit last year?", True),
        ("How much do our refrigerant and SF6 leaks add up to in t CO2e?",
         "how much do our leaks add up to?", True),
        ("Our company emits 40,000 t CO2e in total, spread over five plants of about 8,000 t "
         "each. Does the SBCE apply to us?", "five plants of about 8,000 t each", True),
        ("Quantas t CO2e emitem 1.000 L de diesel?", "Quantas t CO2e emitem 1.000 L de diesel?",
         True),
        # A cue inside a question, or two questions on one topic in other words, are apart.
        ("Como reduzir as emissões do gás natural dos nossos fornos e caldeiras?",
         "reduzir as emissoes", False),
        ("Quem aprova o Plano Nacional de Alocação do SBCE?", "plano nacional de alocacao", False),
        ("O que é GWP e quanto vale o GWP do metano no AR5?",
         "Qual conjunto de potenciais de aquecimento global vale para o inventário?", False),
        ("What's the difference between Scope 1 and Scope 2 emissions?",
         "Qual a diferença entre escopo 1 e escopo 2?", False),
    ],
)  # fmt: skip
def test_the_check_catches_copies_and_leaves_other_wording_alone(question, example, caught):
    assert (overlap(Text("q", question), Text("e", example)) is not None) is caught


def test_the_check_reads_every_question():
    questions = eval_questions()
    assert len(questions) == sum(len(load_questions(path)) for path in EVAL_SETS)
    assert len(questions) >= 100
    assert all(q.words for q in questions)


def test_a_question_copied_from_any_few_shot_example_would_be_found():
    examples = prompt_texts()
    requests = [e.request for prompt in PROMPTS.values() for e in prompt.examples]
    assert len(requests) >= len(PROMPTS)
    for request in requests:
        assert offences([Text("planted", request)], examples), request
    # A question quoted inside a longer request is found too.
    assert offences([Text("planted", "Quanto o GLP pesa no nosso escopo 1?")], examples)


def test_a_question_copied_from_any_offline_docstring_or_comment_would_be_found():
    examples = offline_texts()
    planted = []
    for path in sorted(OFFLINE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(source))
        assert docstring, path.name
        planted.append(docstring.splitlines()[0])
        planted += [text for _, text in _comments(source)][:1]
    assert len(planted) > len(list(OFFLINE.glob("*.py")))  # comments are read as well
    for text in planted:
        assert offences([Text("planted", text)], examples), text


# --- the guard --------------------------------------------------------------------------------


def test_no_eval_question_is_a_few_shot_example_of_a_prompt():
    found = offences(eval_questions(), prompt_texts())
    assert not found, "eval questions copied from the prompts:\n" + "\n".join(found)


def test_no_eval_question_is_an_example_of_the_offline_analyst():
    found = offences(eval_questions(), offline_texts())
    assert not found, "eval questions copied in engine/offline:\n" + "\n".join(found)
