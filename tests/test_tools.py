import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from engine import (
    AGENT_NAMES,
    Aeko,
    AekoMessenger,
    AekoTool,
    ToolCalled,
    ToolReturned,
    UnknownAgentError,
)
from engine.agents.catalog import FAQ, ROUTER
from engine.constants import MAX_TOOL_ROUNDS
from engine.models.scripted import ScriptedChatModel


@tool
def fator_emissao(combustivel: str) -> str:
    """Fator de emissão de um combustível, em kg CO2e por litro."""
    return {"diesel": "2,6 kg CO2e/L"}.get(combustivel, "desconhecido")


@tool
def quebra(x: str) -> str:
    """Sempre falha."""
    raise ValueError("fora do ar")


def tool_call(name, args, call_id="c1"):
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def test_unknown_agent_key_is_rejected_with_the_known_names():
    with pytest.raises(UnknownAgentError) as caught:
        AekoMessenger.set_tools({"Agente X": [fator_emissao]})
    assert caught.value.agent == "Agente X"
    assert caught.value.known_agents == AGENT_NAMES


def test_description_is_rendered_and_the_tool_bound_from_one_declaration(user, session):
    fast = ScriptedChatModel(
        model_name="fake-fast",
        script={
            ROUTER: ["Next agent: FAQ"],
            FAQ: [
                tool_call("fator_emissao", {"combustivel": "diesel"}),
                "2,6.\nNext agent: Nenhum",
            ],
        },
    )
    Aeko.config(fast_model=fast, slow_model=ScriptedChatModel())
    AekoMessenger.set_tools(
        {FAQ: [AekoTool(tool=fator_emissao, description="Use para citar fatores oficiais.")]}
    )
    events = list(AekoMessenger(user).stream("Fator do diesel?", session))
    first, second = fast.calls_for(FAQ)
    system = first.messages[0].text
    assert "# Ferramentas Disponiveis\n- fator_emissao: Use para citar fatores oficiais." in system
    assert first.tools == ("fator_emissao", "consultar_base_conhecimento")
    assert second.messages[-1].text == "2,6 kg CO2e/L"  # the tool's result went back
    called = [e for e in events if isinstance(e, ToolCalled)]
    returned = [e for e in events if isinstance(e, ToolReturned)]
    assert [(e.agent, e.tool, e.arguments) for e in called] == [
        (FAQ, "fator_emissao", {"combustivel": "diesel"})
    ]
    assert [(e.output, e.error) for e in returned] == [("2,6 kg CO2e/L", False)]
    response = events[-1].result
    assert response.message.output == "2,6."
    assert [c.agent for c in response.usage.calls] == [ROUTER, FAQ, FAQ]
    router_system = fast.calls_for(ROUTER)[0].messages[0].text
    assert "fator_emissao" not in router_system


def test_bare_tool_uses_its_own_docstring():
    assert AekoTool.wrap(fator_emissao).to_prompt_line() == (
        "- fator_emissao: Fator de emissão de um combustível, em kg CO2e por litro."
    )


def test_set_tools_replaces_the_registry_and_rebuilds_the_agents(user, session):
    fast = ScriptedChatModel(
        model_name="fake-fast",
        script={ROUTER: ["Next agent: FAQ"], FAQ: ["R.\nNext agent: Nenhum"]},
    )
    Aeko.config(fast_model=fast, slow_model=ScriptedChatModel())
    AekoMessenger.set_tools({FAQ: [fator_emissao]})
    AekoMessenger(user).send_message("?", session)
    AekoMessenger.set_tools({ROUTER: [quebra]})
    AekoMessenger(user).send_message("?", session)
    faq_calls = fast.calls_for(FAQ)
    assert faq_calls[0].tools == ("fator_emissao", "consultar_base_conhecimento")
    assert faq_calls[1].tools == ("consultar_base_conhecimento",)  # built in, never replaced
    assert fast.calls_for(ROUTER)[1].tools == ("quebra",)


def test_failing_or_unknown_tool_is_reported_to_the_model_not_fatal(user, session):
    fast = ScriptedChatModel(
        model_name="fake-fast",
        script={
            ROUTER: ["Next agent: FAQ"],
            FAQ: [
                AIMessage(
                    content="",
                    tool_calls=[
                        {"name": "quebra", "args": {"x": "1"}, "id": "a"},
                        {"name": "inexistente", "args": {}, "id": "b"},
                    ],
                ),
                "Sem dados.\nNext agent: Nenhum",
            ],
        },
    )
    Aeko.config(fast_model=fast, slow_model=ScriptedChatModel())
    AekoMessenger.set_tools({FAQ: [quebra]})
    events = list(AekoMessenger(user).stream("?", session))
    returned = [e for e in events if isinstance(e, ToolReturned)]
    assert [(e.tool, e.error) for e in returned] == [("quebra", True), ("inexistente", True)]
    assert "fora do ar" in returned[0].output
    assert events[-1].result.message.output == "Sem dados."


def test_tool_loop_is_bounded_and_the_last_round_has_no_tools(user, session):
    fast = ScriptedChatModel(
        model_name="fake-fast",
        script={
            ROUTER: ["Next agent: FAQ"],
            FAQ: [tool_call("fator_emissao", {"combustivel": "diesel"})] * MAX_TOOL_ROUNDS
            + ["Chega.\nNext agent: Nenhum"],
        },
    )
    Aeko.config(fast_model=fast, slow_model=ScriptedChatModel())
    AekoMessenger.set_tools({FAQ: [fator_emissao]})
    response = AekoMessenger(user).send_message("?", session)
    faq_calls = fast.calls_for(FAQ)
    assert len(faq_calls) == MAX_TOOL_ROUNDS + 1
    # The last round keeps the tools declared (some providers refuse a tool history without
    # them) but lets none be called.
    assert faq_calls[-1].tool_choice == "none"
    assert all(call.tool_choice is None for call in faq_calls[:-1])
    assert response.message.output == "Chega."


def test_a_binding_is_called_through_its_model_only_when_it_adds_nothing_but_keywords():
    """``bind_tools``' binding only adds the tools and the tool choice to the call, so the
    runner hands those to the model itself; a binding that carries a config of its own
    (``with_config``) or wraps the call (``with_retry``) is called as it is."""
    from engine.agents.runner import _unbound

    model = ScriptedChatModel(script={})
    bound = model.bind_tools([fator_emissao], tool_choice="none")
    target, keywords = _unbound(bound)
    assert target is model
    assert keywords == {"tools": [fator_emissao], "tool_choice": "none"}
    for wrapped in (bound.with_config(tags=["x"]), model.with_retry(), model):
        assert _unbound(wrapped) == (wrapped, {})
