"""Every error the engine raises inherits from AekoError, so one except covers it."""

from collections.abc import Sequence
from typing import Any

from engine.models.finish import is_recitation
from engine.models.resilience import provider_message, status_code
from engine.texts import Both, Texts


class AekoError(Exception):
    """Base class of the engine's errors."""


class LocalizedError(Exception):
    """An error whose message is ready for the user, in Portuguese and in English: a
    ``Both`` written from a text table (``engine.texts``)."""

    def __init__(self, said: Both) -> None:
        if not isinstance(said, Both):  # a table's ``.both(...)``: the one way (engine.texts)
            raise TypeError("LocalizedError takes a Both written from a text table")
        self.said = said
        self.message_pt, self.message_en = said.pt, said.en
        super().__init__(said.en)

    def message(self, language: str = "pt") -> str:
        return self.message_pt if language.lower().startswith("pt") else self.message_en


class AekoNotConfiguredError(AekoError):
    """Aeko.config() was never called, or a model id string came without an API key."""


class UnknownAgentError(AekoError):
    """set_tools() got a key that is not an agent name."""

    def __init__(self, agent: str, known_agents: Sequence[str]) -> None:
        self.agent = agent
        self.known_agents = tuple(known_agents)
        super().__init__(f"Unknown agent {agent!r}. Known agents: {', '.join(self.known_agents)}.")


class MalformedAgentOutputError(AekoError):
    """An agent's answer never matched the shape its prompt demands, even after rewrites."""

    def __init__(
        self, agent: str, missing: Sequence[str], attempts: int, usage: Any = None
    ) -> None:
        self.agent = agent
        self.missing = tuple(missing)
        self.attempts = attempts
        self.usage = usage  # what the run spent before giving up (an AekoUsage), if known
        super().__init__(
            f"{agent} did not produce the fields {', '.join(self.missing)} "
            f"after {attempts} attempts."
        )


class AekoModelError(AekoError):
    """A model call failed on the primary model and on its fallback.

    Keeps what the log needs (the last failure's type, HTTP status and the provider's own
    message, which never holds the user's text) and says what went wrong in the user's
    words by ``kind``: ``key``, ``request``, ``rate_limit``, ``provider_down``, ``timeout``
    or ``unavailable``. ``usage`` is what the run had spent until then (an AekoUsage).
    """

    def __init__(
        self,
        agent: str,
        cause: BaseException,
        *,
        model: str | None = None,
        usage: Any = None,
    ) -> None:
        self.agent = agent
        self.model = model
        self.usage = usage
        self.error_type = type(cause).__name__
        self.status = status_code(cause)
        self.provider_message = provider_message(cause)
        self.kind = _model_error_kind(cause, self.status)
        status = f" {self.status}" if self.status else ""
        super().__init__(f"{agent}: the model call failed ({self.error_type}{status}).")

    def message(self, language: str = "pt") -> str:
        return _TEXTS(self.kind, language)


# What went wrong with a model call, in the user's words, by AekoModelError.kind.
_TEXTS = Texts(
    "engine.errors",
    {
        "key": {
            "pt": "O provedor do modelo recusou a chave de API (sem chave válida ou sem "
            "permissão): confira a chave nas configurações.",
            "en": "The model provider refused the API key (missing, invalid or without "
            "permission): check the key in the settings.",
        },
        "request": {
            "pt": "O provedor do modelo recusou o pedido como inválido: tente reformular ou "
            "encurtar.",
            "en": "The model provider rejected the request as invalid: try rewording or "
            "shortening it.",
        },
        "rate_limit": {
            "pt": "O provedor do modelo está limitando as chamadas (cota ou excesso de pedidos): "
            "tente de novo em alguns instantes.",
            "en": "The model provider is rate limiting calls (quota or too many requests): try "
            "again in a moment.",
        },
        "provider_down": {
            "pt": "O provedor do modelo está fora do ar ou com erro interno: tente de novo mais "
            "tarde.",
            "en": "The model provider is down or failing: try again later.",
        },
        "timeout": {
            "pt": "O modelo demorou demais para responder: tente de novo.",
            "en": "The model took too long to answer: try again.",
        },
        "unavailable": {
            "pt": "O modelo não respondeu, nem o de reserva: tente de novo mais tarde.",
            "en": "The model did not answer, nor did its fallback: try again later.",
        },
        "safety": {
            "pt": "O provedor do modelo bloqueou a resposta pelos filtros de segurança dele, "
            "então não há resposta para mostrar: reformule a pergunta.",
            "en": "The model provider blocked the answer with its safety filters, so there is no "
            "answer to show: rephrase the question.",
        },
        "recitation": {
            "pt": "O provedor do modelo interrompeu a resposta porque ela reproduziria um texto "
            "protegido palavra por palavra: peça um resumo com suas próprias palavras.",
            "en": "The model provider stopped the answer because it would reproduce a protected "
            "text word for word: ask for a summary in its own words.",
        },
        "cut_off": {
            "pt": "O modelo atingiu o limite de tokens de saída antes de escrever a resposta (o "
            "raciocínio interno dele conta nesse limite): aumente o limite (max_tokens) ou "
            "faça uma pergunta mais específica.",
            "en": "The model reached its output-token limit before writing any answer (its "
            "internal reasoning counts against that limit): raise the limit (max_tokens) or "
            "ask a more specific question.",
        },
        "deadline": {
            "pt": "A execução passou do prazo de {seconds} s e foi interrompida antes da próxima "
            "chamada ao modelo: tente uma pergunta mais simples ou de novo em instantes.",
            "en": "The run went past its {seconds} s deadline and was stopped before its next "
            "model call: try a simpler question, or again in a moment.",
        },
    },
)


def _model_error_kind(cause: BaseException, status: int | None) -> str:
    if status in (401, 403):
        return "key"
    if status == 429:
        return "rate_limit"
    if status is not None and status >= 500:
        return "provider_down"
    if status == 408:
        return "timeout"
    if status is not None and 400 <= status < 500:
        return "request"
    names = " ".join(cls.__name__.lower() for cls in type(cause).__mro__)
    if isinstance(cause, TimeoutError) or "timeout" in names or "timedout" in names:
        return "timeout"
    for marker, kind in (("authentication", "key"), ("permission", "key"),
                         ("ratelimit", "rate_limit"), ("invalidrequest", "request")):  # fmt: skip
        if marker in names:
            return kind
    return "unavailable"


class _NoAnswer(Exception):
    """Stands as the cause of a reply that came back without an answer in it."""


class AekoModelRefusedError(AekoModelError):
    """The provider answered but withheld the answer: a safety filter blocked the reply or
    the prompt (Gemini's ``SAFETY``, ``PROHIBITED_CONTENT``, ``BLOCKLIST``...), or it
    stopped to avoid reciting a source (``RECITATION``). ``reason`` is the provider's word
    for it, ``provider_message`` its explanation when it gave one.

    Neither retried nor sent to the fallback model: the same request meets the same
    filter, and routing around a provider's safety filter is not the engine's call.
    """

    def __init__(
        self,
        agent: str,
        reason: str,
        *,
        model: str | None = None,
        usage: Any = None,
        detail: str = "",
    ) -> None:
        super().__init__(agent, _NoAnswer(reason), model=model, usage=usage)
        self.reason = reason
        self.error_type = type(self).__name__
        self.provider_message = detail[:300]
        self.kind = "recitation" if is_recitation(reason) else "safety"
        self.args = (f"{agent}: the provider withheld the answer ({reason}).",)


class AekoModelCutOffError(AekoModelError):
    """The reply was cut at the output-token cap before it held any text or tool call:
    with Gemini, its thinking used the whole cap. A cut reply with text is not an error:
    it comes back flagged ``truncated``."""

    def __init__(self, agent: str, *, model: str | None = None, usage: Any = None) -> None:
        super().__init__(agent, _NoAnswer("output-token cap"), model=model, usage=usage)
        self.error_type = type(self).__name__
        self.kind = "cut_off"
        self.args = (f"{agent}: the reply was cut at the token cap before any text.",)


class AekoBudgetExceededError(AekoError):
    """A run reached one of its caps (model calls, tokens or cost) and was stopped.

    ``usage`` is what the run had already spent; ``limit`` names the cap that was hit.
    """

    def __init__(self, agent: str, limit: str, allowed: float, used: float, usage: Any) -> None:
        self.agent = agent
        self.limit = limit
        self.allowed = allowed
        self.used = used
        self.usage = usage
        super().__init__(
            f"Run budget exceeded before {agent}: {limit} {used:g} of {allowed:g} allowed."
        )


class AekoDeadlineError(AekoBudgetExceededError):
    """A run took longer than its deadline (``RunBudget.deadline_s``) and was stopped before
    its next model call. ``limit`` is ``"deadline_s"``; ``used`` and ``allowed`` are seconds."""

    def message(self, language: str = "pt") -> str:
        return _TEXTS("deadline", language, seconds=f"{self.allowed:.0f}")
