"""Providers: retry signals read from the real Google and LangChain error types, one retry
loop (ours), a per-run deadline, the last tool round, model errors the user can read, and a
run log that rotates and keeps no personal text."""

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from google.genai import errors as genai_errors
from langchain_core.exceptions import ModelInvalidRequestError, ModelRateLimitError
from langchain_core.tools import tool
from langchain_google_genai import chat_models as google_chat

import engine.budget as budget_module
from engine import Aeko, AekoMessenger, AekoSession, AekoUser
from engine.agents.catalog import FAQ, ROUTER
from engine.agents.runner import AgentRunner
from engine.budget import BudgetTracker, RunBudget
from engine.constants import MAX_TOOL_ROUNDS
from engine.dto import AekoModelCall, AekoTool
from engine.errors import AekoBudgetExceededError, AekoDeadlineError, AekoModelError
from engine.models.resilience import describe, is_retryable, retry_after, status_code
from engine.models.scripted import ScriptedChatModel
from engine.runlog import RunLog

USER = AekoUser(id_external_user=1, role="Analista ESG")


@pytest.fixture(autouse=True)
def _reset():
    Aeko.reset()
    yield
    Aeko.reset()


def google_error(code: int, status: str, message: str, details=(), headers=None):
    """A real google.genai error, built as the SDK builds it from an HTTP response."""
    body = {"error": {"code": code, "message": message, "status": status, "details": [*details]}}
    response = httpx.Response(code, json=body, headers=headers or {})
    cls = genai_errors.ClientError if code < 500 else genai_errors.ServerError
    return cls(code, body, response)


RETRY_INFO = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}


def as_langchain(error: genai_errors.APIError) -> BaseException:
    """What ChatGoogleGenerativeAI raises for it: its own classified type, from the error."""
    try:
        if isinstance(error, genai_errors.ServerError):
            google_chat._handle_server_error(error)
        else:
            google_chat._handle_client_error(error, {"model": "gemini-test"})
    except Exception as converted:  # what the integration raises
        return converted
    raise AssertionError("the integration did not raise")


def test_a_google_429_with_retry_info_is_retried_after_its_retry_delay():
    raw = google_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded.", [RETRY_INFO])
    assert isinstance(raw, genai_errors.ClientError)
    assert (status_code(raw), is_retryable(raw), retry_after(raw)) == (429, True, 37.0)

    wrapped = as_langchain(raw)
    assert isinstance(wrapped, google_chat.GoogleRateLimitError)
    assert isinstance(wrapped, ModelRateLimitError) and wrapped.__cause__ is raw
    # The wrapper has no status of its own: both are read from what it was raised from.
    assert (status_code(wrapped), is_retryable(wrapped), retry_after(wrapped)) == (429, True, 37)
    assert describe(wrapped) == "GoogleRateLimitError (429)"


def test_retry_after_headers_in_seconds_or_as_an_http_date():
    raw = google_error(503, "UNAVAILABLE", "Overloaded.", headers={"Retry-After": "12"})
    assert isinstance(raw, genai_errors.ServerError)
    assert retry_after(raw) == 12.0 and is_retryable(raw)
    wrapped = as_langchain(raw)
    assert isinstance(wrapped, google_chat.GoogleAPIError) and retry_after(wrapped) == 12.0

    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    dated = google_error(429, "RESOURCE_EXHAUSTED", "Slow down.", headers={"Retry-After": later})
    assert 25 <= retry_after(dated) <= 30
    assert retry_after(google_error(429, "RESOURCE_EXHAUSTED", "No hint.")) is None


def test_a_retry_delay_as_a_duration_object_is_read_too():
    info = {**RETRY_INFO, "retryDelay": {"seconds": 2, "nanos": 500_000_000}}
    assert retry_after(google_error(429, "RESOURCE_EXHAUSTED", "Later.", [info])) == 2.5


@pytest.mark.parametrize(
    ("code", "status", "kind", "wrapper"),
    [
        (400, "INVALID_ARGUMENT", "request", google_chat.GoogleInvalidRequestError),
        (401, "UNAUTHENTICATED", "key", google_chat.GoogleAuthenticationError),
        (403, "PERMISSION_DENIED", "key", google_chat.GooglePermissionDeniedError),
        (429, "RESOURCE_EXHAUSTED", "rate_limit", google_chat.GoogleRateLimitError),
        (500, "INTERNAL", "provider_down", google_chat.GoogleAPIError),
        (503, "UNAVAILABLE", "provider_down", google_chat.GoogleAPIError),
    ],
)
def test_real_provider_errors_are_classified_for_retries_and_for_the_user(
    code, status, kind, wrapper
):
    raw = google_error(code, status, "API key not valid." if code == 401 else "Something.")
    wrapped = as_langchain(raw)
    assert isinstance(wrapped, wrapper)
    assert is_retryable(wrapped) == (code == 429 or code >= 500)
    error = AekoModelError(FAQ, wrapped, model="gemini-test")
    assert (error.status, error.kind, error.error_type) == (code, kind, wrapper.__name__)
    assert error.provider_message  # the provider's words, kept for the log
    assert error.message("pt") != error.message("en")
    assert str(code) in str(error) and "key not valid" not in str(error)


def test_langchain_core_model_errors_say_themselves_whether_to_retry():
    assert is_retryable(ModelRateLimitError("slow down"))
    assert not is_retryable(ModelInvalidRequestError("bad request"))
    assert AekoModelError(FAQ, TimeoutError("read timed out")).kind == "timeout"
    assert AekoModelError(FAQ, ModelRateLimitError("x")).kind == "rate_limit"
    assert AekoModelError(FAQ, RuntimeError("?")).kind == "unavailable"


def test_gemini_is_built_with_one_attempt_so_our_loop_is_the_only_retry(monkeypatch):
    from google.genai.types import GenerationConfig
    from langchain_google_genai import ChatGoogleGenerativeAI

    from engine.models.factory import ModelSettings, build_tier_chains

    settings = ModelSettings(
        api_key="k",
        fast_model="gemini-2.5-flash",
        slow_model="gemini-2.5-flash",
        max_tokens=64,
        report_max_tokens=64,
        request_timeout=5.0,
    )
    model = build_tier_chains(settings, 64)["fast"][0]
    assert isinstance(model, ChatGoogleGenerativeAI)
    # max_retries=0 would mean the Google SDK's default retries; 1 is a single attempt.
    assert model.max_retries == 1
    config = model._build_request_config(
        formatted_tools=None,
        formatted_tool_config=None,
        formatted_safety_settings=[],
        params=GenerationConfig(),
        cached_content=None,
        system_instruction=None,
        timeout=5000,
        max_retries=model.max_retries,
    )
    assert config.http_options.retry_options.attempts == 1


def test_a_run_past_its_deadline_stops_before_the_next_model_call(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(budget_module, "_clock", lambda: now[0])
    tracker = BudgetTracker(RunBudget(deadline_s=30))
    tracker.before_call(ROUTER)
    now[0] += 31
    with pytest.raises(AekoDeadlineError) as caught:
        tracker.before_call(FAQ)
    error = caught.value
    assert isinstance(error, AekoBudgetExceededError) and error.limit == "deadline_s"
    assert error.allowed == 30 and error.used == pytest.approx(31)
    assert "30 s" in error.message("pt") and "deadline" in error.message("en")


def test_the_deadline_is_configurable_and_a_bare_tracker_has_none(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(budget_module, "_clock", lambda: now[0])
    scripted = ScriptedChatModel(model_name="m")
    Aeko.config(fast_model=scripted, slow_model=scripted, run_deadline_s=5)
    capped = BudgetTracker(RunBudget(max_cost_usd=1.0))  # names no deadline: the default
    bare = BudgetTracker(None)
    now[0] = 6
    with pytest.raises(AekoDeadlineError):
        capped.before_call(FAQ)
    bare.before_call(FAQ)  # no budget at all: no deadline either
    Aeko.reset()
    assert BudgetTracker(RunBudget()).deadline_s == budget_module.DEFAULT_RUN_DEADLINE_S


def test_a_deadline_mid_run_reaches_the_caller_with_what_was_spent(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(budget_module, "_clock", lambda: now[0])

    def slow_router(_messages):
        now[0] += 10
        return "Next agent: FAQ"

    model = ScriptedChatModel(model_name="m", script={ROUTER: [slow_router], FAQ: ["R."]})
    Aeko.config(fast_model=model, slow_model=model, run_deadline_s=5)
    with pytest.raises(AekoDeadlineError) as caught:
        AekoMessenger(USER).send_message("?", AekoSession())
    assert caught.value.agent == FAQ
    assert [c.agent for c in caught.value.usage.calls] == [ROUTER]


def test_a_model_error_carries_the_model_and_what_the_run_spent(monkeypatch):
    monkeypatch.setattr("engine.agents.runner._pause", lambda s: None)
    denied = as_langchain(google_error(401, "UNAUTHENTICATED", "API key not valid."))
    model = ScriptedChatModel(model_name="m", script={ROUTER: ["Next agent: FAQ"], FAQ: [denied]})
    Aeko.config(fast_model=model, slow_model=model)
    with pytest.raises(AekoModelError) as caught:
        AekoMessenger(USER).send_message("?", AekoSession())
    error = caught.value
    assert (error.agent, error.model, error.status, error.kind) == (FAQ, "m", 401, "key")
    assert [c.agent for c in error.usage.calls] == [ROUTER]
    assert len(model.calls_for(FAQ)) == 1  # a 401 is not retried


@tool
def lookup(term: str) -> str:
    """Looks a term up."""
    return f"{term}: found"


def test_the_last_tool_round_keeps_the_tools_declared_with_tool_choice_none():
    call = {"name": "lookup", "args": {"term": "x"}, "id": "c1", "type": "tool_call"}
    from langchain_core.messages import AIMessage

    model = ScriptedChatModel(
        model_name="m", script={FAQ: [AIMessage(content="", tool_calls=[call])]}
    )
    runner = AgentRunner(FAQ, "prompt", [model], [AekoTool(tool=lookup, description="d")])
    runner.run("?", "hoje", emit=lambda event: None)
    calls = model.calls_for(FAQ)
    assert len(calls) == MAX_TOOL_ROUNDS + 1
    assert calls[-1].tools == ("lookup",)  # still declared on the round that must answer
    assert runner._final_chain[0].kwargs["tool_choice"] == "none"
    assert "tool_choice" not in runner._tool_chain[0].kwargs


def test_the_run_log_leaves_personal_text_out_unless_asked(tmp_path):
    model = ScriptedChatModel(
        model_name="m",
        script={ROUTER: ["Next agent: FAQ"], FAQ: ["Resposta secreta.\nNext agent: Nenhum"]},
    )
    log = tmp_path / "runs.jsonl"
    Aeko.config(fast_model=model, slow_model=model, run_log=log)
    AekoMessenger(USER).send_message("Minha pergunta pessoal", AekoSession())
    text = log.read_text()
    assert "Minha pergunta pessoal" not in text and "Resposta secreta" not in text
    finished = [json.loads(line) for line in text.splitlines()][-1]
    assert finished["kind"] == "run_finished" and set(finished["result"]) == {"usage"}
    assert any('"text_chars"' in line for line in text.splitlines())


def test_the_run_log_rotates_by_size_and_keeps_n_files(tmp_path):
    path = tmp_path / "runs.jsonl"
    log = RunLog(path, max_bytes=400, backups=2)
    for index in range(40):
        log.write(f"run-{index}", "chat", {"kind": "agent_started", "agent": "FAQ"})
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["runs.jsonl", "runs.jsonl.1", "runs.jsonl.2"]
    assert all(p.stat().st_size <= 400 for p in tmp_path.iterdir())
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["run_id"] == "run-39"


def test_the_run_log_writes_when_a_run_is_abandoned(tmp_path):
    log = RunLog(tmp_path / "runs.jsonl")
    events = log.follow("r", "chat", iter(["a", "b"]))
    next(events)
    events.close()
    kinds = [json.loads(line).get("kind") for line in (tmp_path / "runs.jsonl").open()]
    assert kinds[-1] == "run_interrupted"


def test_tool_arguments_are_named_not_logged(tmp_path):
    log = RunLog(tmp_path / "runs.jsonl")
    log.write("r", "chat", {"kind": "tool_called", "arguments": {"pergunta": "CPF 123"}})
    line = json.loads((tmp_path / "runs.jsonl").read_text())
    assert line["argument_names"] == ["pergunta"] and "CPF" not in json.dumps(line)


def test_an_unpriced_call_counts_against_a_cost_cap_at_the_conservative_estimate():
    tracker = BudgetTracker(RunBudget(max_cost_usd=0.001))
    tracker.before_call(ROUTER)
    tracker.record(
        AekoModelCall(agent=ROUTER, model="unknown", input_tokens=100, output_tokens=100)
    )
    assert tracker.usage.cost_usd is None  # shown as unknown, never as US$ 0
    with pytest.raises(AekoBudgetExceededError) as caught:
        tracker.before_call(FAQ)
    assert caught.value.limit == "cost_usd"
    assert caught.value.used == pytest.approx(100 * 15e-6 + 100 * 75e-6)


def test_logging_is_configured_once_and_never_shows_a_key():
    import io
    import logging

    from components.startup import configure_logging

    configure_logging(debug=False, secrets=["AIza-secret-key", None])
    configure_logging(debug=False, secrets=["AIza-secret-key"])
    marked = [h for h in logging.getLogger("engine").handlers if getattr(h, "_aeko", False)]
    assert len(marked) == 1
    out = io.StringIO()
    marked[0].setStream(out)
    logger = logging.getLogger("engine.models")
    logger.warning("model error with key=%s", "AIza-secret-key")
    logger.debug("hidden unless AEKO_DEBUG")
    written = out.getvalue()
    assert "AIza-secret-key" not in written and "[redacted]" in written
    assert "hidden" not in written
    configure_logging(debug=True)
    logger.debug("shown with AEKO_DEBUG")
    assert "shown with AEKO_DEBUG" in out.getvalue()
    configure_logging(debug=False)
