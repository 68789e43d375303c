"""Chat quality: the eval question set run against a configured model, scored per group.

    .venv/bin/python -m bench.eval [--model MODEL] [--set main|holdout|blind|blind2]
        [--group GROUP ...] [--answers]

``--model`` is a Gemini model id (key from GEMINI_API_KEY or GOOGLE_API_KEY), any
``provider:model`` (key from OPENAI_API_KEY or ANTHROPIC_API_KEY; ollama needs none), or
``offline`` (the default): the deterministic offline analyst that CI scores. The same model
serves both tiers. The questions and their machine checks are tests/eval/questions.toml and
tests/eval/checks.py; ``--set holdout`` runs tests/eval/holdout.toml instead, the held-out
questions never used to tune the engine, and ``--set blind`` the frozen blind set
tests/eval/blind.toml (written by someone who never read the analyst; some of its questions
attach tests/data/blind_inventory.xlsx). Prints one JSON object: the model (and the set,
if not the main one), the total score, each group's score and count, every failure with its
reasons (and answer, with ``--answers``), elapsed seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# Run as a script too: the root must come before bench/, whose engine.py would shadow the
# engine package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Aeko
from engine.offline import OFFLINE_MODEL_NAME, OfflineAnalyst
from settings import load_settings
from tests.eval.harness import GROUPS, SETS, Outcome, load_questions, run_all, score

OFFLINE = "offline"


def configure(model: str) -> str:
    """Point both tiers at ``model``; returns the name to report."""
    if model == OFFLINE:
        analyst = OfflineAnalyst()
        Aeko.config(fast_model=analyst, slow_model=analyst)
        return OFFLINE_MODEL_NAME
    # The app's own reader of keys: the same variables the deployment uses.
    settings = load_settings({}, os.environ)
    Aeko.config(
        api_key=settings.gemini_api_key,
        fast_model=model,
        slow_model=model,
        provider_keys=settings.provider_keys,
    )
    return model


def failure(outcome: Outcome, *, with_answer: bool) -> dict:
    entry: dict = {"id": outcome.id, "group": outcome.group, "lang": outcome.lang,
                   "reasons": list(outcome.reasons)}  # fmt: skip
    if with_answer:
        entry["agents"] = list(outcome.agents)
        entry["answer"] = outcome.answer
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=OFFLINE, help="Gemini id, provider:model or offline")
    parser.add_argument("--set", default="main", choices=SETS, help="question set")
    parser.add_argument("--group", action="append", choices=GROUPS, help="repeatable")
    parser.add_argument("--answers", action="store_true", help="include failing answers")
    args = parser.parse_args()
    name = configure(args.model)
    questions = load_questions(SETS[args.set], groups=args.group)
    started = time.perf_counter()
    outcomes = run_all(questions)
    elapsed = time.perf_counter() - started
    result = score(outcomes)
    report = {
        "model": name,
        **({"set": args.set} if args.set != "main" else {}),
        "score": result["score"],
        "passed": result["passed"],
        "count": result["count"],
        "groups": result["groups"],
        "failures": [failure(o, with_answer=args.answers) for o in outcomes if not o.passed],
        "elapsed_s": round(elapsed, 2),
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
