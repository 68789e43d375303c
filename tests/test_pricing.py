import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from genai_prices import Usage, calc_price

from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.agents.catalog import FAQ, ROUTER
from engine.models.scripted import ScriptedChatModel
from engine.offline import OfflineAnalyst
from engine.pricing import call_cost

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FAQ_PATH = {ROUTER: ["Next agent: FAQ"], FAQ: ["R.\nNext agent: Nenhum"]}


def test_a_known_model_is_priced_per_call_with_genai_prices():
    expected = calc_price(Usage(input_tokens=1200, output_tokens=300), model_ref="gemini-2.5-flash")
    assert call_cost("gemini-2.5-flash", 1200, 300) == pytest.approx(float(expected.total_price))
    assert call_cost("models/gemini-2.5-flash", 1200, 300) == call_cost(
        "gemini-2.5-flash", 1200, 300
    )


def test_an_unknown_model_costs_unknown_never_zero(caplog):
    assert call_cost("modelo-que-nao-existe-9", 10, 10) is None
    assert "modelo-que-nao-existe-9" in caplog.text


def test_turn_cost_is_the_sum_of_each_call_and_unknown_poisons_the_total():
    priced = ScriptedChatModel(model_name="gemini-2.5-flash", script=FAQ_PATH)
    Aeko.config(fast_model=priced, slow_model=priced)
    user = AekoUser(id_external_user=1, role="r")
    usage = AekoMessenger(user).send_message("?", AekoSession()).usage
    expected = sum(
        float(calc_price(Usage(input_tokens=c.input_tokens, output_tokens=c.output_tokens),
                         model_ref="gemini-2.5-flash").total_price)
        for c in usage.calls
    )  # fmt: skip
    assert usage.cost_usd == pytest.approx(expected) and usage.cost_usd > 0
    unknown = ScriptedChatModel(model_name="mystery-model", script=FAQ_PATH)
    Aeko.config(fast_model=unknown, slow_model=unknown)
    assert AekoMessenger(user).send_message("?", AekoSession()).usage.cost_usd is None


def test_the_offline_analyst_is_free():
    analyst = OfflineAnalyst()
    Aeko.config(fast_model=analyst, slow_model=analyst)
    usage = (
        AekoMessenger(AekoUser(id_external_user=1, role="r"))
        .send_message("O que é escopo 1?", AekoSession())
        .usage
    )
    assert usage.cost_usd == 0.0


def test_the_cost_module_pulls_in_neither_pandas_nor_the_offline_analyst():
    # ``engine/__init__.py`` imports the whole public API (pandas included), so the package
    # is stood in for by a bare one: this checks what ``engine.pricing`` itself depends on.
    code = textwrap.dedent(f"""
        import json, sys, types
        package = types.ModuleType("engine")
        package.__path__ = [{str(ENGINE)!r}]
        sys.modules["engine"] = package
        import engine.pricing
        heavy = ("pandas", "bm25s", "engine.offline", "engine.inventory")
        print(json.dumps(sorted(name for name in sys.modules if name.startswith(heavy))))
    """)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(done.stdout) == []


def test_an_unknown_price_is_none_but_a_cap_counts_a_conservative_estimate():
    from engine.dto import AekoModelCall, AekoUsage
    from engine.pricing import (
        FALLBACK_INPUT_USD_PER_TOKEN,
        FALLBACK_OUTPUT_USD_PER_TOKEN,
        cap_cost,
        estimated_call_cost,
        usage_cap_cost,
        usage_is_estimated,
    )

    assert call_cost("a-model-nobody-prices", 1_000, 100) is None
    estimate = estimated_call_cost(1_000, 100)
    assert estimate == pytest.approx(1_000 * 15e-6 + 100 * 75e-6)
    assert (FALLBACK_INPUT_USD_PER_TOKEN, FALLBACK_OUTPUT_USD_PER_TOKEN) == (15e-6, 75e-6)
    # The fallback is above what genai-prices charges for a flagship model.
    assert estimate > call_cost("gemini-2.5-pro", 1_000, 100)
    assert cap_cost(0.001, 1_000, 100) == 0.001 and cap_cost(None, 1_000, 100) == estimate
    usage = AekoUsage(
        calls=[
            AekoModelCall(agent=ROUTER, model="gemini-2.5-flash", input_tokens=10, cost_usd=0.5),
            AekoModelCall(agent=FAQ, model="x", input_tokens=1_000, output_tokens=100),
        ]
    )
    assert usage.cost_usd is None and usage_is_estimated(usage)
    assert usage_cap_cost(usage) == pytest.approx(0.5 + estimate)
