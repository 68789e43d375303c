"""Data objects that cross the engine's boundary.

The five collection DTOs mirror their MongoDB documents field for field, ``_id`` included:
``model_validate(document)`` takes one in and ``model_dump(by_alias=True)`` gives it back.
Identifiers accept a bson ``ObjectId`` (what pymongo returns) as well as a string and are
held as strings; the engine itself never imports the database driver.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from langchain_core.tools import BaseTool
from langchain_core.tools import tool as as_tool
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    computed_field,
    field_validator,
)

if TYPE_CHECKING:  # a private attribute: pydantic never validates it, the type is for readers
    from engine.actions.model import PlanActions


def utc_now() -> datetime:
    # Milliseconds: what BSON keeps, so a timestamp survives a trip through MongoDB intact.
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _id_to_str(value: Any) -> Any:
    # bson.ObjectId, checked by name so the engine does not depend on the driver.
    if type(value).__name__ == "ObjectId":
        return str(value)
    return value


DocumentId = Annotated[str | None, BeforeValidator(_id_to_str)]

# The engine's two flows. One home for routing, prompts and the usage store alike, so a new
# flow cannot be added to one and silently missing from the other.
Flow = Literal["chat", "inventory"]


class _Document(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class AekoUser(_Document):
    id: DocumentId = Field(default=None, alias="_id")
    id_external_user: int
    role: str
    usecase: str = ""
    created_at: datetime | None = None


class AekoUserMemory(_Document):
    id: DocumentId = Field(default=None, alias="_id")
    id_user: DocumentId = None
    field: str
    description: str
    created_at: datetime | None = None
    expires_at: datetime | None = None

    def to_prompt_line(self) -> str:
        return f"- {self.field}: {self.description}"


class AekoMessage(BaseModel):
    """One turn, as one entry of ``session.messages``."""

    input: str
    output: str = ""
    submitted_at: datetime = Field(default_factory=utc_now)
    llm: str = ""
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)


class AekoSession(_Document):
    id: DocumentId = Field(default=None, alias="_id")
    id_user: DocumentId = None
    name: str = ""
    messages: list[AekoMessage] = Field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None


class AekoConversationSummary(BaseModel):
    """The running summary of the turns older than the replayed window. It lives on the
    session document under its own field; the turns themselves are never altered."""

    text: str
    covered_turns: int = Field(ge=0)  # messages[:covered_turns] are folded into it
    updated_at: datetime = Field(default_factory=utc_now)


class AekoModelCall(BaseModel):
    """One model round-trip: who asked, which model answered, what it consumed."""

    agent: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    duration_ms: float = 0.0
    cost_usd: float | None = None  # None: the model's price is unknown
    retries: int = 0  # failed attempts before this call was answered, fallbacks included


class AekoUsage(BaseModel):
    """What a run consumed, per model call and in total."""

    calls: list[AekoModelCall] = Field(default_factory=list)

    @computed_field
    @property
    def input_tokens(self) -> int:
        return sum(call.input_tokens for call in self.calls)

    @computed_field
    @property
    def output_tokens(self) -> int:
        return sum(call.output_tokens for call in self.calls)

    @computed_field
    @property
    def cost_usd(self) -> float | None:
        """The sum of the calls' costs; None when any call's price is unknown."""
        costs = [call.cost_usd for call in self.calls]
        return None if any(cost is None for cost in costs) else sum(costs)  # type: ignore[misc]

    @computed_field
    @property
    def models(self) -> list[str]:
        """The models that answered, each once, in the order they first did."""
        return list(dict.fromkeys(call.model for call in self.calls))


SourceKind = Literal["knowledge", "inventory", "factor"]


class AekoSource(BaseModel):
    """What an answer stands on: a knowledge-base entry, inventory rows, or an emission
    factor. Tools hand these beside their text (LangChain's ``content_and_artifact``), so
    the list an answer shows is what the run read, never what a model says it read."""

    model_config = ConfigDict(frozen=True)

    kind: SourceKind
    ref: str  # stable identity: entry id, query signature, factor id; duplicates fold on it
    label: str  # what the user reads: entry title, the query, the factor and its value
    citation: str = ""  # the publication or file the value comes from
    # The same in English, where the source has both (a factor); empty: label/citation hold.
    label_en: str = ""
    citation_en: str = ""

    def label_in(self, lang: str = "pt") -> str:
        return self.label_en if lang == "en" and self.label_en else self.label

    def citation_in(self, lang: str = "pt") -> str:
        return self.citation_en if lang == "en" and self.citation_en else self.citation


class AekoMessageResponse(BaseModel):
    """The run's answer plus how it got there. Only ``message`` belongs in the database."""

    message: AekoMessage
    id_session: DocumentId = None
    id_user: DocumentId = None
    agents_called: list[str] = Field(default_factory=list)
    approved: bool = False
    guardrail_retries: int = Field(default=0, ge=0)
    # Additions to the reference contract: False when the answer came from an agent that
    # ends the run without review (FAQ, or the coordinator in chat); and the run's usage.
    reviewed: bool = False
    usage: AekoUsage = Field(default_factory=AekoUsage)
    # The conversation summary after this run (extended when older turns were folded).
    summary: AekoConversationSummary | None = None
    # What the answer used (tools' sources, in the order first read), and whether the
    # provider cut the answer at the token cap: then it is shown flagged, never as complete.
    sources: list[AekoSource] = Field(default_factory=list)
    truncated: bool = False
    # Numbers of the answer that nothing the run read backs, as written; the output marks
    # each "(não verificado)" / "(unverified)". Empty when every figure has a source.
    unverified: list[str] = Field(default_factory=list)


class AekoImprovementPlan(_Document):
    id: DocumentId = Field(default=None, alias="_id")
    id_external_inventory: int
    defined_problem: str
    method: str
    reasoning: str
    # Numbers of the plan that nothing the run read supports, as written (shown marked).
    unverified_numbers: list[str] = Field(default_factory=list)
    updated_at: datetime = Field(default_factory=utc_now)

    # Beside the document, not in it: model_dump() keeps exactly the collection's fields.
    _usage: AekoUsage = PrivateAttr(default_factory=AekoUsage)
    _agents_called: list[str] = PrivateAttr(default_factory=list)
    _actions: PlanActions | None = PrivateAttr(default=None)

    @property
    def usage(self) -> AekoUsage:
        return self._usage

    @property
    def actions(self) -> PlanActions | None:
        """The actions the engine computed for the plan (persisted beside it, not in it)."""
        return self._actions

    @property
    def agents_called(self) -> list[str]:
        return self._agents_called


class AekoTool(BaseModel):
    """A tool for one agent. Its description is rendered into the agent's prompt and the
    same tool object is bound to the agent's model, from this one declaration."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    tool: BaseTool
    description: str = ""

    @field_validator("tool", mode="before")
    @classmethod
    def _callable_to_tool(cls, value: Any) -> Any:
        if not isinstance(value, BaseTool) and callable(value):
            return as_tool(value)
        return value

    @property
    def name(self) -> str:
        return self.tool.name

    def to_prompt_line(self) -> str:
        description = self.description or self.tool.description
        return f"- {self.name}: {description}" if description else f"- {self.name}"

    @classmethod
    def wrap(cls, value: AekoTool | Any) -> AekoTool:
        return value if isinstance(value, cls) else cls(tool=value)
