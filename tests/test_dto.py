from datetime import datetime

import pytest
from bson import ObjectId

from engine import (
    AekoImprovementPlan,
    AekoMessage,
    AekoSession,
    AekoUser,
    AekoUserMemory,
)

NOW = datetime(2026, 11, 30, 12, 0, 0)


@pytest.mark.parametrize(
    ("dto", "document"),
    [
        (
            AekoUser,
            {"_id": "u1", "id_external_user": 1001, "role": "ESG", "usecase": "x",
             "created_at": NOW},
        ),
        (
            AekoUserMemory,
            {"_id": "m1", "id_user": "u1", "field": "f", "description": "d", "created_at": NOW,
             "expires_at": None},
        ),
        (
            AekoSession,
            {"_id": "s1", "id_user": "u1", "name": "n", "created_at": NOW, "updated_at": NOW,
             "messages": [{"input": "i", "output": "o", "submitted_at": NOW, "llm": "m",
                           "input_tokens": 3, "output_tokens": 4}]},
        ),
        (
            AekoImprovementPlan,
            {"_id": "p1", "id_external_inventory": 502, "defined_problem": "a", "method": "b",
             "reasoning": "c", "unverified_numbers": ["70"], "updated_at": NOW},
        ),
    ],
)  # fmt: skip
def test_documents_round_trip_losslessly(dto, document):
    assert dto.model_validate(document).model_dump(by_alias=True) == document


def test_object_ids_are_accepted_and_held_as_strings():
    oid = ObjectId()
    memory = AekoUserMemory.model_validate(
        {"_id": oid, "id_user": oid, "field": "f", "description": "d"}
    )
    assert memory.id == memory.id_user == str(oid)
    assert AekoUser.model_validate({"_id": oid, "id_external_user": 1, "role": "r"}).id == str(oid)


def test_timestamps_are_not_invented_for_received_documents():
    assert AekoSession().created_at is None and AekoSession().updated_at is None
    assert AekoUser(id_external_user=1, role="r").created_at is None
    memory = AekoUserMemory(field="f", description="d")
    assert memory.created_at is None and memory.expires_at is None
    assert AekoMessage(input="x").submitted_at.tzinfo is not None


def test_memory_prompt_line():
    assert AekoUserMemory(field="idioma", description="pt-BR").to_prompt_line() == (
        "- idioma: pt-BR"
    )
