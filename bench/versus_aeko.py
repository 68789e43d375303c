"""Engine overhead per turn beside the reference SDK, aeko 2.2, in one run (issue #25).

    .venv/bin/python -m bench.versus_aeko --aeko-python /tmp/aeko-venv/bin/python

The reference lives in a throwaway venv of its own, never in this project's:

    python3.11 -m venv /tmp/aeko-venv && /tmp/aeko-venv/bin/pip install "aeko==2.2.*"

The same turn runs in both engines with a chat model that answers at once (0 ms), so what a
turn costs is the engine's own work: the graph, the prompts, the events, LangChain's call
machinery. Two paths: the FAQ (Roteador → FAQ, 2 model calls) and the specialists
(Roteador → Analista de Poluentes → Analista de Gases Verdes → Orquestrador → Guardrail de
Saída, 5 calls), each asked "Quais gases mais pesam no escopo 1?" on a session of 10 earlier
turns, by a user with a role, a usecase and one memory; one warm-up turn first (it builds
the graph). The analysts answer six sentences, each with its own figures. Each timed turn
names a case of its own in the question and in every sentence of the analysts' answers
("…, caso ab."), so that neither engine finds a turn's texts, or their sentences, read
already. Rounds
alternate the two engines (ours, then aeko, then ours...) so that the machine's load drifts
over both alike. Prints JSON: per engine and path the median ms per
turn and per agent call, and ours / aeko.

Ours is driven with its own scripted model (``engine.models.scripted``). aeko 2.2's public
API takes only a Gemini key and model names (``Aeko.config``), so its fake is LangChain's:
``ChatGoogleGenerativeAI``'s ``_generate`` and ``_stream`` (the methods a LangChain chat
model implements) answer from a script, in call order, with token usage as a provider
reports it; no request leaves the process. This file runs in both venvs: with ``--side
aeko`` (by the aeko venv's Python) it imports only the standard library, aeko and LangChain.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "Quais gases mais pesam no escopo 1?"
# An analyst's answer of six sentences, each with its own figures (all in the session's
# earlier answers, so they are backed). Each turn names its case in every sentence (reply_of).
SENTENCES = (
    "Resposta com números do inventário: diesel 1.240 t CO2e (23,5%).",
    "O gás natural soma 2.951,1 t CO2e nas caldeiras (6,0%).",
    "A frota própria responde por 8.120,5 t CO2e, 17,9% do escopo 1.",
    "Os refrigerantes somam 310,4 t CO2e, com o R-410A à frente.",
    "A energia comprada fica em 1.310,0 t CO2e pelo método de localização.",
    "O total reportado é 45.210,9 t CO2e no escopo 1, 92,3% do inventário.",
)
ANSWER = " ".join(SENTENCES)
# The replies of one turn, in the order the agents are called (the same text as bench.engine).
TURNS = {
    "faq": ["Conceitual.\nNext agent: FAQ", ANSWER + "\nNext agent: Nenhum"],
    "specialists": [
        "Poluentes.\nNext agent: Analista de Poluentes",
        ANSWER + "\nNext agent: Analista de Gases Verdes",
        ANSWER + "\nNext agent: Orquestrador",
        ANSWER + "\nNext agent: Guardrail de Saída",
        "Aprovado.",
    ],
}
EXPECTED_CALLS = {path: len(replies) for path, replies in TURNS.items()}
# Our scripted model answers as "scripted", which genai-prices does not know: its calls are
# priced as unknown at once. Answering as this Gemini model, each call is priced as in use.
PRICED_AS = "gemini-2.5-flash"


# Every timed turn is a new question with a new answer, as a user's are: an engine that keeps
# what it read of a text would otherwise find this turn's question and answers read already.
def turn_tag(turn: int) -> str:
    """A word of its own for each turn: 0 → "a", 25 → "z", 26 → "ba"."""
    letters = ""
    while True:
        turn, digit = divmod(turn, 26)
        letters = chr(ord("a") + digit) + letters
        if not turn:
            return letters


def question_of(tag: str) -> str:
    return f"{QUESTION[:-1]}, caso {tag}?"


def reply_of(text: str, tag: str) -> str:
    """An analyst's scripted answer, naming the turn's case in each of its sentences (an
    engine that keeps what it read of a sentence would otherwise find last turn's sentences
    read already); routing replies stay as they are (the path taken must be the same every
    turn)."""
    if ANSWER not in text:
        return text
    tagged = " ".join(f"{sentence[:-1]}, caso {tag}." for sentence in SENTENCES)
    return text.replace(ANSWER, tagged)


def _summary(timings: list[float], calls_per_turn: int) -> dict:
    median = statistics.median(timings)
    return {
        "turns": len(timings),
        "median_turn_ms": round(median, 3),
        "model_calls_per_turn": calls_per_turn,
        "median_ms_per_agent_call": round(median / calls_per_turn, 3),
    }


# --- aeko 2.2, in its own venv -------------------------------------------------------------


def _aeko_side(path: str, turns: int) -> dict:
    """Time ``turns`` turns of ``path`` in aeko 2.2 with a 0 ms scripted Gemini."""
    import aeko
    from langchain_core.messages import AIMessage, AIMessageChunk
    from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
    from langchain_google_genai import ChatGoogleGenerativeAI

    script: list[str] = []
    served: list[str] = []  # which method each call came through

    def reply(messages: list) -> AIMessage:
        text = script.pop(0) if script else "Aprovado."
        prompt = sum(len(str(m.content)) for m in messages)
        usage = {"input_tokens": prompt // 4, "output_tokens": len(text) // 4}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        return AIMessage(content=text, usage_metadata=usage)

    def generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        served.append("generate")
        return ChatResult(generations=[ChatGeneration(message=reply(messages))])

    def stream(self, messages, stop=None, run_manager=None, **kwargs):
        served.append("stream")
        message = reply(messages)
        chunk = AIMessageChunk(content=message.content, usage_metadata=message.usage_metadata)
        yield ChatGenerationChunk(message=chunk)

    ChatGoogleGenerativeAI._generate = generate
    ChatGoogleGenerativeAI._stream = stream
    aeko.Aeko.config("scripted-no-key")
    user = aeko.AekoUser(id_external_user=1, role="Analista ESG", usecase="Frota de caldeiras")
    memories = [aeko.AekoUserMemory(field="idioma", description="português")]
    messenger = aeko.AekoMessenger(user, memories)

    def session():
        history = [aeko.AekoMessage(input=f"Pergunta {i}?", output=ANSWER) for i in range(10)]
        return aeko.AekoSession(
            id="64b8f0a1c9e1a2b3c4d5e6f3", id_user="64b8f0a1c9e1a2b3c4d5e6f1", messages=history
        )

    turns_done = 0

    def turn() -> tuple[float, object]:
        nonlocal turns_done
        tag = turn_tag(turns_done)
        turns_done += 1
        script[:] = [reply_of(text, tag) for text in TURNS[path]]
        question = question_of(tag)
        started = time.perf_counter()
        response = messenger.send_message(question, session())
        return (time.perf_counter() - started) * 1000, response

    _, warm = turn()  # builds the agents and the graph
    served.clear()
    timings = [turn()[0] for _ in range(turns)]
    calls = len(served) // turns
    return _summary(timings, calls) | {
        "agents_called": list(warm.agents_called),
        "approved": warm.approved,
        "answer_chars": len(warm.message.output),
        "model_method": sorted(set(served)),
        "version": aeko.__version__,
    }


# --- ours, in this venv ----------------------------------------------------------------------


def _our_side(path: str, turns: int) -> dict:
    from bench.engine import chat_overhead
    from engine import messenger

    # What citing an answer's sources costs (backing it with the references, then finding the
    # numbers it states in them): work of ours aeko 2.2 does not do, timed apart.
    spent: list[float] = []

    def timed(function):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent.append((time.perf_counter() - started) * 1000)

        return wrapper

    messenger.backing = timed(messenger.backing)
    messenger.cited_sources = timed(messenger.cited_sources)
    result = chat_overhead(path, turns)
    warm_up_calls = 2  # chat_overhead's warm-up turn cites once: backing and cited_sources
    citing = round(sum(spent[warm_up_calls:]) / turns, 3)
    # The same turns streamed live, as the app's pages read them (aeko 2.2 has no stream).
    streamed = chat_overhead(path, turns, live=True, first_case=turns)
    # The same turns with each call priced, as a Gemini model's are (aeko 2.2 prices none).
    priced = chat_overhead(path, turns, first_case=2 * turns, model_name=PRICED_AS)
    return {key: result[key] for key in ("median_turn_ms", "model_calls_per_turn")} | {
        "turns": turns,
        "median_ms_per_agent_call": result["median_ms_per_agent_call"],
        "citing_sources_ms_per_turn": citing,
        "streamed_median_turn_ms": streamed["median_turn_ms"],
        "priced_median_turn_ms": priced["median_turn_ms"],
    }


def _run_aeko(python: str, path: str, turns: int) -> dict:
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--side", "aeko", "--path", path,
         "--turns", str(turns)],
        capture_output=True, text=True, check=False, cwd="/tmp",
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"aeko side failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _run_ours(path: str, turns: int) -> dict:
    # A process of its own too, so that both engines start equally cold and neither inherits
    # the other's warmed caches.
    done = subprocess.run(
        [sys.executable, "-m", "bench.versus_aeko", "--side", "ours", "--path", path,
         "--turns", str(turns)],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"our side failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--aeko-python", default="/tmp/aeko-venv/bin/python")
    parser.add_argument("--turns", type=int, default=200, help="timed turns per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--side", choices=("ours", "aeko"), help=argparse.SUPPRESS)
    parser.add_argument("--path", choices=sorted(TURNS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        side = _aeko_side if args.side == "aeko" else _our_side
        print(json.dumps(side(args.path, args.turns)))
        return
    load_before = list(os.getloadavg())
    rounds: dict[str, dict[str, list[dict]]] = {path: {"ours": [], "aeko": []} for path in TURNS}
    for _ in range(args.rounds):
        for path in TURNS:
            rounds[path]["ours"].append(_run_ours(path, args.turns))
            rounds[path]["aeko"].append(_run_aeko(args.aeko_python, path, args.turns))
    result: dict = {"python": platform.python_version(), "turns_per_round": args.turns,
                    "rounds": args.rounds, "load_average_before": load_before}  # fmt: skip
    for path, sides in rounds.items():
        entry: dict = {}
        for name, runs in sides.items():
            calls = runs[0]["model_calls_per_turn"]
            turn = statistics.median(run["median_turn_ms"] for run in runs)
            entry[name] = {
                "median_turn_ms": round(turn, 3),
                "median_ms_per_agent_call": round(turn / calls, 3),
                "model_calls_per_turn": calls,
                "round_medians_ms": [run["median_turn_ms"] for run in runs],
            } | {key: runs[0][key] for key in ("agents_called", "approved", "model_method",
                                                "version") if key in runs[0]}  # fmt: skip
            if name == "ours":
                for key in ("citing_sources_ms_per_turn", "streamed_median_turn_ms",
                            "priced_median_turn_ms"):  # fmt: skip
                    entry[name][key] = round(statistics.median(run[key] for run in runs), 3)
        ours, theirs = entry["ours"], entry["aeko"]
        for name in ("ours", "aeko"):  # the same turn in both, or the ratio means nothing
            if entry[name]["model_calls_per_turn"] != EXPECTED_CALLS[path]:
                raise SystemExit(f"{name} made {entry[name]['model_calls_per_turn']} calls")
        entry["ours_over_aeko_per_turn"] = round(
            ours["median_turn_ms"] / theirs["median_turn_ms"], 3
        )
        entry["ours_over_aeko_per_agent_call"] = round(
            ours["median_ms_per_agent_call"] / theirs["median_ms_per_agent_call"], 3
        )
        entry["ours_streamed_over_aeko_per_turn"] = round(
            ours["streamed_median_turn_ms"] / theirs["median_turn_ms"], 3
        )
        entry["ours_priced_over_aeko_per_turn"] = round(
            ours["priced_median_turn_ms"] / theirs["median_turn_ms"], 3
        )
        without = ours["median_turn_ms"] - ours["citing_sources_ms_per_turn"]
        entry["ours_without_citing_over_aeko_per_turn"] = round(
            without / theirs["median_turn_ms"], 3
        )
        result[path] = entry
    result["load_average_after"] = list(os.getloadavg())
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
