"""Engine overhead and flow shape, measured with scripted models.

    .venv/bin/python -m bench.engine [--turns 300] [--plans 5]

With a 0 ms model every millisecond of a turn is engine overhead (graph, prompts, events,
LangChain's call machinery). With a 200 ms model, analyze() shows whether the two analysts
really overlap: about 3 model latencies, not 4. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from bench.versus_aeko import ANSWER, question_of, reply_of, turn_tag
from engine import (
    Aeko,
    AekoInventoryAnalyzer,
    AekoMessage,
    AekoMessenger,
    AekoSession,
    AekoUser,
    AekoUserMemory,
)
from engine.agents.catalog import (
    COORDINATOR,
    FAQ,
    GREEN_GASES_ANALYST,
    GUARDRAIL,
    INVENTORY_ANALYST,
    ORCHESTRATOR,
    POLLUTANTS_ANALYST,
    ROUTER,
)
from engine.models.scripted import ScriptedChatModel

PLAN = (
    "## Problema definido\nDiesel: 1.240 t CO2e.\n\n## Método\nHVO em 40% até 2027.\n\n"
    "## Raciocínio\nReduz 248 a 397 t CO2e/ano.\nNext agent: Nenhum"
)
SCRIPTS = {
    "faq": {ROUTER: ["Conceitual.\nNext agent: FAQ"], FAQ: [ANSWER + "\nNext agent: Nenhum"]},
    "specialists": {
        ROUTER: ["Poluentes.\nNext agent: Analista de Poluentes"],
        POLLUTANTS_ANALYST: [ANSWER + "\nNext agent: Analista de Gases Verdes"],
        GREEN_GASES_ANALYST: [ANSWER + "\nNext agent: Orquestrador"],
        ORCHESTRATOR: [ANSWER + "\nNext agent: Guardrail de Saída"],
        GUARDRAIL: ["Aprovado."],
    },
    "inventory": {
        INVENTORY_ANALYST: [ANSWER + "\nNext agent: Analista de Poluentes"],
        POLLUTANTS_ANALYST: [ANSWER + "\nNext agent: Coordenador de Melhoria Contínua"],
        GREEN_GASES_ANALYST: [ANSWER + "\nNext agent: Coordenador de Melhoria Contínua"],
        COORDINATOR: [PLAN],
    },
}
INVENTORY = "| Fonte | Escopo | Gás | t CO2e |\n|---|---|---|---|\n" + "".join(
    f"| Fonte {i} | 1 | CO2 | {100 + i} |\n" for i in range(40)
)


def _configure(script: dict, latency_s: float, model_name: str = "scripted") -> ScriptedChatModel:
    model = ScriptedChatModel(model_name=model_name, script=script, latency_s=latency_s)
    Aeko.config(fast_model=model, slow_model=model)
    return model


def _session() -> AekoSession:
    turns = [AekoMessage(input=f"Pergunta {i}?", output=ANSWER) for i in range(10)]
    return AekoSession(_id="s", id_user="u", messages=turns)


_CASE = {"tag": ""}  # the turn being asked, for the scripted answers that name it


def _naming_the_case(text: str):
    return lambda messages: reply_of(text, _CASE["tag"])


def chat_overhead(
    path: str,
    turns: int,
    *,
    live: bool = False,
    first_case: int = 0,
    model_name: str = "scripted",
) -> dict:
    """Turns read to their end (``send_message``, what aeko's API offers); ``live``: the same
    turns streamed as the app's pages read them (``stream``), each agent run in a thread so
    that its events reach the page while it runs. ``first_case``: where the turns' case
    words start, so that a second measure in one process asks new questions.
    ``model_name``: what the scripted model answers as; a name genai-prices knows has each
    call priced, as a provider's would be ("scripted" is priced as unknown)."""
    script = {agent: [_naming_the_case(text) for text in texts]
              for agent, texts in SCRIPTS[path].items()}  # fmt: skip
    model = _configure(script, 0.0, model_name)
    user = AekoUser(id_external_user=1, role="Analista ESG", usecase="Frota de caldeiras")
    memories = [AekoUserMemory(field="idioma", description="português")]
    messenger = AekoMessenger(user, memories)
    messenger.send_message("aquecimento", _session())  # builds the graph once
    calls_before = len(model.calls)
    timings = []
    for turn in range(first_case, first_case + turns):
        session = _session()
        _CASE["tag"] = turn_tag(turn)
        question = question_of(_CASE["tag"])
        started = time.perf_counter()
        if live:
            for _event in messenger.stream(question, session):
                pass
        else:
            messenger.send_message(question, session)
        timings.append((time.perf_counter() - started) * 1000)
    calls = model.calls[calls_before:]
    per_turn = len(calls) // turns
    median = statistics.median(timings)
    return {
        "median_turn_ms": round(median, 3),
        "p95_turn_ms": round(statistics.quantiles(timings, n=20)[18], 3),
        "model_calls_per_turn": per_turn,
        "median_ms_per_agent_call": round(median / per_turn, 3),
        "prompt_chars_per_call": {call.agent: call.prompt_chars for call in calls[:per_turn]},
    }


def inventory_flow(latency_s: float, plans: int) -> dict:
    model = _configure(SCRIPTS["inventory"], latency_s)
    analyzer = AekoInventoryAnalyzer()
    analyzer.analyze(INVENTORY, id_external_inventory=1)
    calls_before = len(model.calls)
    timings = []
    for _ in range(plans):
        started = time.perf_counter()
        analyzer.analyze(INVENTORY, id_external_inventory=1)
        timings.append((time.perf_counter() - started) * 1000)
    calls = model.calls[calls_before:]
    median = statistics.median(timings)
    return {
        "model_latency_ms": latency_s * 1000,
        "median_analyze_ms": round(median, 3),
        "model_latencies_per_analyze": round(median / (latency_s * 1000), 2) if latency_s else None,
        "model_calls_per_plan": len(calls) // plans,
        "prompt_chars_per_call": {
            call.agent: call.prompt_chars for call in calls[: len(calls) // plans]
        },
    }


OFFLINE_QUESTIONS = {
    "faq": "Qual a diferença entre escopo 1 e escopo 2?",
    "green": "Com o que posso substituir o diesel da frota?",
    "pollutants": "Quanto pesa o metano (CH4) comparado ao N2O?",
    "plan": "Monte um plano para reduzir nossas emissões de refrigerantes R-410A",
}


def offline_turns(turns: int) -> dict:
    """Model time of the offline analyst per chat turn (the sum of its calls' durations)."""
    from engine.offline import OfflineAnalyst

    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    messenger = AekoMessenger(AekoUser(id_external_user=1, role="Analista ESG"))
    result = {}
    for label, question in OFFLINE_QUESTIONS.items():
        messenger.send_message(question, AekoSession())  # loads the knowledge base once
        model_ms, wall_ms = [], []
        for _ in range(turns):
            started = time.perf_counter()
            response = messenger.send_message(question, AekoSession())
            wall_ms.append((time.perf_counter() - started) * 1000)
            model_ms.append(sum(call.duration_ms for call in response.usage.calls))
        result[label] = {
            "agents": response.agents_called,
            "median_model_ms": round(statistics.median(model_ms), 3),
            "max_model_ms": round(max(model_ms), 3),
            "median_turn_ms": round(statistics.median(wall_ms), 3),
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--plans", type=int, default=5)
    args = parser.parse_args()
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "chat_faq_path_0ms": chat_overhead("faq", args.turns),
        "chat_specialist_path_0ms": chat_overhead("specialists", args.turns),
        "inventory_0ms": inventory_flow(0.0, args.turns // 3),
        "inventory_200ms": inventory_flow(0.2, args.plans),
        "offline_analyst": offline_turns(max(20, args.turns // 10)),
    }
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
