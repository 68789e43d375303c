"""Repositories against a real wire-protocol server (embedded SecantusDB, or MONGODB_URI)."""

from datetime import UTC, datetime, timedelta

import pytest
from bson import ObjectId

from engine import AekoImprovementPlan, AekoMessage, AekoSession
from store.errors import NotFoundError


def _user(store, external=1001):
    return store.users.get_or_create(external, role="Analista ESG", usecase="Caldeiras")


def test_documents_hold_object_ids_and_dtos_hold_strings(db_store):
    user = _user(db_store)
    session = db_store.sessions(user.id).create("Escopo 1")
    raw = db_store.db.session.find_one({"_id": ObjectId(session.id)})
    assert isinstance(raw["_id"], ObjectId) and isinstance(raw["id_user"], ObjectId)
    loaded = db_store.sessions(user.id).get(session.id)
    assert isinstance(loaded.id, str) and loaded.id_user == user.id
    assert loaded.model_dump(by_alias=True)["_id"] == session.id


def test_users_are_created_once_and_profiles_update(db_store):
    first = _user(db_store)
    again = db_store.users.get_or_create(1001, role="outro")
    assert again.id == first.id and again.role == "Analista ESG"
    updated = db_store.users.update_profile(first.id, role="Gerente", usecase="Frota")
    assert (updated.role, updated.usecase) == ("Gerente", "Frota")
    assert db_store.users.get(first.id).role == "Gerente"


def test_sessions_create_list_newest_first_rename_delete(db_store):
    user = _user(db_store)
    sessions = db_store.sessions(user.id)
    created = [sessions.create(f"Sessão {i}") for i in range(3)]
    sessions.rename(created[0].id, "Renomeada")
    run = "run-a"
    sessions.begin_turn(created[0].id, run, "pergunta")
    sessions.complete_turn(created[0].id, run, AekoMessage(input="pergunta", output="resposta"))
    listed = sessions.list()
    assert [s.id for s in listed] == [created[0].id, created[2].id, created[1].id]
    full = sessions.list_full()
    assert [s.id for s in full] == [s.id for s in listed]
    assert [m.output for m in full[0].messages] == ["resposta"]
    assert listed[0].name == "Renomeada"
    assert sessions.delete(created[1].id)
    assert [s.id for s in sessions.list()] == [created[0].id, created[2].id]
    with pytest.raises(NotFoundError):
        sessions.get(created[1].id)


def test_a_turn_is_saved_before_the_engine_runs_and_appended_exactly_once(db_store):
    user = _user(db_store)
    sessions = db_store.sessions(user.id)
    session = sessions.create("Turnos")
    pending = sessions.begin_turn(session.id, "run-1", "Quanto pesa o diesel?")
    assert [p.input for p in sessions.pending_turns(session.id)] == ["Quanto pesa o diesel?"]
    sessions.begin_turn(session.id, "run-1", "Quanto pesa o diesel?")  # a retried begin
    assert len(sessions.pending_turns(session.id)) == 1
    answer = AekoMessage(input=pending.input, output="38%.", llm="m", input_tokens=5)
    assert sessions.complete_turn(session.id, "run-1", answer)
    assert not sessions.complete_turn(session.id, "run-1", answer)  # retry after a timeout
    loaded = sessions.get(session.id)
    assert [m.output for m in loaded.messages] == ["38%."]
    assert loaded.messages[0] == answer
    assert loaded.updated_at == answer.submitted_at
    assert sessions.pending_turns(session.id) == []


def test_a_rejected_turn_is_kept_outside_the_conversation(db_store):
    user = _user(db_store)
    sessions = db_store.sessions(user.id)
    session = sessions.create("Rejeição")
    sessions.begin_turn(session.id, "run-r", "pergunta ruim")
    assert sessions.reject_turn(
        session.id, "run-r", "pergunta ruim", reasons="link externo", guardrail_retries=3
    )
    assert not sessions.reject_turn(
        session.id, "run-r", "pergunta ruim", reasons="x", guardrail_retries=3
    )
    assert sessions.get(session.id).messages == []
    [rejected] = sessions.rejected_turns(session.id)
    assert (rejected.input, rejected.reasons, rejected.guardrail_retries) == (
        "pergunta ruim",
        "link externo",
        3,
    )
    assert sessions.pending_turns(session.id) == []


def test_a_completed_turn_is_idempotent_even_without_its_pending_record(db_store):
    user = _user(db_store)
    sessions = db_store.sessions(user.id)
    session = sessions.create("Sem pendente")
    message = AekoMessage(input="q", output="a")
    assert sessions.complete_turn(session.id, "run-x", message)
    assert not sessions.complete_turn(session.id, "run-x", message)
    assert len(sessions.get(session.id).messages) == 1


def test_memories_filter_the_expired_on_read(db_store):
    user = _user(db_store)
    memories = db_store.memories(user.id)
    kept = memories.add("idioma", "português")
    later = memories.add("meta", "reduzir 20%", expires_at=datetime.now(UTC) + timedelta(days=30))
    gone = memories.add("antigo", "usar AR4", expires_at=datetime.now(UTC) - timedelta(days=1))
    expired_now = memories.add("temporário", "x")
    memories.expire(expired_now.id)
    assert [m.id for m in memories.active()] == [kept.id, later.id]
    assert {m.id for m in memories.all()} == {kept.id, later.id, gone.id, expired_now.id}
    memories.update(kept.id, field="idioma", description="inglês")
    assert memories.active()[0].description == "inglês"


def test_plans_by_user_and_inventory_newest_first_and_saved_once(db_store):
    user = _user(db_store)
    plans = db_store.plans(user.id)
    old = AekoImprovementPlan(
        id_external_inventory=7,
        defined_problem="a",
        method="b",
        reasoning="c",
        updated_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    new = AekoImprovementPlan(
        id_external_inventory=7,
        defined_problem="d",
        method="e",
        reasoning="f",
        updated_at=datetime(2026, 6, 1, tzinfo=UTC),
    )
    other = AekoImprovementPlan(
        id_external_inventory=8, defined_problem="g", method="h", reasoning="i"
    )
    saved_old = plans.save(old, run_id="p1")
    assert plans.save(old, run_id="p1").id == saved_old.id  # a retried save
    plans.save(new, run_id="p2")
    plans.save(other, run_id="p3")
    assert [p.defined_problem for p in plans.by_inventory(7)] == ["d", "a"]
    assert [p.defined_problem for p in plans.list()] == ["g", "d", "a"]
    stored = db_store.db.improvement_plan.find_one({"_id": ObjectId(saved_old.id)})
    assert {
        "_id",
        "id_external_inventory",
        "defined_problem",
        "method",
        "reasoning",
        "updated_at",
    } <= set(stored)
    assert plans.delete(saved_old.id) and len(plans.by_inventory(7)) == 1


def test_inventories_keep_the_original_file_and_a_summary(db_store):
    user = _user(db_store)
    inventories = db_store.inventories(user.id)
    data = b"Fonte;Gas;Emissoes (t)\nCaldeira;CO2;10\n" * 100
    record = inventories.save(
        "inv.csv",
        data,
        sheets=["inv.csv"],
        mapping={"inv.csv": {"Fonte": "source"}},
        summary={"total_tco2e": 10.0, "gwp_set": "AR5"},
    )
    again = inventories.save(
        "inv (1).csv",
        data,
        sheets=["inv.csv"],
        mapping={"inv.csv": {"Fonte": "source"}},
        summary={"total_tco2e": 10.0, "gwp_set": "AR5"},
    )
    assert again.id == record.id  # the same content read the same way is stored once
    assert inventories.delete(again.id) and inventories.list() == []
    record = inventories.save(
        "inv.csv", data, sheets=["inv.csv"], mapping={"inv.csv": {"Fonte": "source"}},
        summary={"total_tco2e": 10.0, "gwp_set": "AR5"},
    )  # fmt: skip
    assert inventories.file(record.id) == data
    second = inventories.save("outro.csv", b"x;y\n1;2\n", sheets=[], mapping={}, summary={})
    assert second.number == record.number + 1
    assert [r.id for r in inventories.list()] == [second.id, record.id]
    assert record.size == len(data) and len(record.sha256) == 64
    assert inventories.delete(record.id)
    assert db_store.db.inventory_file.files.count_documents({}) == 1


def test_user_a_cannot_read_change_or_delete_user_b_s_data(db_store):
    alice, bob = _user(db_store, 1), _user(db_store, 2)
    session = db_store.sessions(bob.id).create("Do Bob")
    memory = db_store.memories(bob.id).add("segredo", "do Bob")
    plan = db_store.plans(bob.id).save(
        AekoImprovementPlan(
            id_external_inventory=1, defined_problem="a", method="b", reasoning="c"
        ),
        run_id="bob",
    )
    record = db_store.inventories(bob.id).save("b.csv", b"a;b\n", sheets=[], mapping={}, summary={})
    as_alice = db_store.sessions(alice.id)
    assert as_alice.list() == []
    with pytest.raises(NotFoundError):
        as_alice.get(session.id)
    assert not as_alice.rename(session.id, "hack")
    assert not as_alice.delete(session.id)
    assert not as_alice.complete_turn(session.id, "r", AekoMessage(input="x", output="y"))
    with pytest.raises(NotFoundError):
        as_alice.begin_turn(session.id, "r", "x")
    assert db_store.memories(alice.id).active() == []
    with pytest.raises(NotFoundError):
        db_store.memories(alice.id).expire(memory.id)
    assert not db_store.memories(alice.id).delete(memory.id)
    assert db_store.plans(alice.id).list() == []
    with pytest.raises(NotFoundError):
        db_store.plans(alice.id).get(plan.id)
    assert not db_store.plans(alice.id).delete(plan.id)
    with pytest.raises(NotFoundError):
        db_store.inventories(alice.id).file(record.id)
    assert not db_store.inventories(alice.id).delete(record.id)
    bob_session = db_store.sessions(bob.id).get(session.id)
    assert bob_session.name == "Do Bob" and bob_session.messages == []
    assert db_store.memories(bob.id).active()[0].expires_at is None
    assert len(db_store.plans(bob.id).list()) == 1


def test_a_session_from_the_engine_round_trips(db_store):
    user = _user(db_store)
    sessions = db_store.sessions(user.id)
    session = sessions.create("Round trip")
    loaded = sessions.get(session.id)
    assert isinstance(loaded, AekoSession)
    assert loaded.created_at is not None and loaded.created_at.tzinfo is not None


def test_usage_is_recorded_once_per_run_and_summed_per_session_user_and_day(db_store):
    from engine import AekoModelCall, AekoUsage

    user = _user(db_store)
    usage_repo = db_store.usage(user.id)
    session = db_store.sessions(user.id).create("Custos")
    calls = [
        AekoModelCall(
            agent="Roteador",
            model="gemini-2.5-flash",
            input_tokens=100,
            output_tokens=10,
            cost_usd=0.002,
            retries=1,
        ),
        AekoModelCall(
            agent="FAQ",
            model="gemini-2.5-flash",
            input_tokens=200,
            output_tokens=50,
            cost_usd=0.003,
        ),
    ]
    priced = AekoUsage(calls=calls)
    unknown = AekoUsage(calls=[AekoModelCall(agent="FAQ", model="x", input_tokens=5)])
    assert usage_repo.record("r1", "chat", priced, outcome="answered", session_id=session.id)
    assert not usage_repo.record("r1", "chat", priced, outcome="answered", session_id=session.id)
    usage_repo.record("r2", "chat", unknown, outcome="rejected", session_id=session.id)
    usage_repo.record("r3", "inventory", priced, outcome="plan", inventory_number=4)
    in_session = usage_repo.totals(session_id=session.id)
    assert (in_session.runs, in_session.input_tokens, in_session.unknown_cost_runs) == (2, 305, 1)
    assert in_session.cost_usd == pytest.approx(0.005)
    everything = usage_repo.totals()
    assert everything.runs == 3 and everything.cost_usd == pytest.approx(0.010)
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    assert usage_repo.totals(since=tomorrow).runs == 0
    stored = db_store.db.usage.find_one({"run_id": "r1"})
    assert stored["calls"][0]["retries"] == 1 and stored["retries"] == 1
    assert db_store.usage(_user(db_store, 2).id).totals().runs == 0  # isolation


def test_the_conversation_summary_is_kept_beside_the_turns_and_only_grows(db_store):
    from engine import AekoConversationSummary

    user = _user(db_store)
    sessions = db_store.sessions(user.id)
    session = sessions.create("Longa")
    assert sessions.summary(session.id) is None
    assert sessions.save_summary(session.id, AekoConversationSummary(text="- a", covered_turns=5))
    older = AekoConversationSummary(text="- velho", covered_turns=3)
    assert not sessions.save_summary(session.id, older)
    assert sessions.summary(session.id).text == "- a"
    assert sessions.get(session.id).messages == []  # the DTO stays the reference's


def test_the_same_file_read_with_other_settings_is_a_new_version(db_store):
    inventories = db_store.inventories(_user(db_store).id)
    data = b"Fonte;Gas;Emissoes (t)\nCaldeira;CH4;1\n"
    base = {"sheets": ["inv.csv"], "mapping": {"inv.csv": {"Fonte": "source"}}}
    first = inventories.save("inv.csv", data, **base, summary={"gwp_set": "AR5"})
    assert inventories.save("inv.csv", data, **base, summary={"gwp_set": "AR5"}).id == first.id
    ar6 = inventories.save("inv.csv", data, **base, summary={"gwp_set": "AR6"})
    fossil = inventories.save(
        "inv.csv", data, **base, summary={"gwp_set": "AR6", "ch4_origin": "fossil"}
    )
    remapped = inventories.save(
        "inv.csv", data, sheets=["inv.csv"], mapping={"inv.csv": {"Gas": "gas"}},
        summary={"gwp_set": "AR5"},
    )  # fmt: skip
    own = inventories.save(
        "inv.csv", data, **base, summary={"gwp_set": "AR5"}, factors=("f.csv", b"a;b\n")
    )
    ids = {first.id, ar6.id, fossil.id, remapped.id, own.id}
    assert len(ids) == 5  # each setting stored, nothing returned from the old record
    assert inventories.get(remapped.id).mapping == {"inv.csv": {"Gas": "gas"}}
    assert inventories.get(ar6.id).summary["gwp_set"] == "AR6"
    # Every version keeps the same-settings dedup, a record from before the settings hash too.
    assert inventories.save("inv.csv", data, **base, summary={"gwp_set": "AR6"}).id == ar6.id
    db_store.db.inventory.update_one(
        {"_id": ObjectId(first.id)}, {"$unset": {"settings_sha256": 1}}
    )
    assert inventories.save("inv.csv", data, **base, summary={"gwp_set": "AR5"}).id == first.id


def test_history_search_runs_in_the_database_accent_and_case_insensitive_by_page(db_store):
    user = _user(db_store)
    plans, sessions = db_store.plans(user.id), db_store.sessions(user.id)
    for n in range(25):
        problem = "Caldeira a gás natural" if n % 5 == 0 else f"Frota diesel {n}"
        plans.save(
            AekoImprovementPlan(
                id_external_inventory=n, defined_problem=problem, method="m", reasoning="r"
            ),
            run_id=f"run-{n}",
        )
    first, second = plans.search(skip=0, limit=20), plans.search(skip=20, limit=20)
    assert len(first) == 20 and len(second) == 5
    assert [p.id_external_inventory for p in first + second] == list(range(24, -1, -1))
    found = plans.search("CALDEIRA A GAS")
    assert [p.id_external_inventory for p in found] == [20, 15, 10, 5, 0]
    assert plans.search("gás   NATURAL", skip=3, limit=20)[0].id_external_inventory == 5
    assert plans.search("a.*b (") == []  # the query is text, never a pattern

    talk = sessions.create("Escopo três")
    sessions.complete_turn(
        talk.id,
        "r1",
        AekoMessage(
            input="O que é CO2 biogênico?", output="Emissões de biomassa.", llm="x",
            submitted_at=datetime.now(UTC),
        ),
    )  # fmt: skip
    sessions.create("Outra")
    assert [s.name for s in sessions.search("escopo tres")] == ["Escopo três"]
    assert [s.name for s in sessions.search("BIOGENICO")] == ["Escopo três"]
    assert [s.name for s in sessions.search("biomassa")] == ["Escopo três"]
    assert len(sessions.search("")) == 2 and len(sessions.search("", skip=1, limit=5)) == 1
    assert db_store.sessions(_user(db_store, 2).id).search("escopo") == []


def test_a_session_document_is_read_once_with_all_that_is_kept_beside_it(db_store):
    sessions = db_store.sessions(_user(db_store).id)
    talk = sessions.create("Escopo 1")
    sessions.begin_turn(talk.id, "r1", "Pergunta?")
    stamp = datetime.now(UTC).replace(microsecond=0)
    message = AekoMessage(input="Pergunta?", output="Resposta.", llm="x", submitted_at=stamp)
    sessions.complete_turn(talk.id, "r1", message, {"cost_usd": 0.5})
    sessions.begin_turn(talk.id, "r2", "Outra?")
    sessions.reject_turn(talk.id, "r3", "Ruim?", reasons="fora", guardrail_retries=1)
    sessions.attach(talk.id, "inv-1")
    read = sessions.read(talk.id)
    assert [m.output for m in read.session.messages] == ["Resposta."]
    assert read.turn_meta[stamp]["cost_usd"] == 0.5
    assert [p.input for p in read.pending] == ["Outra?"]
    assert [r.reasons for r in read.rejected] == ["fora"]
    assert read.attached_inventory == "inv-1" and read.summary is None
    with pytest.raises(NotFoundError):
        db_store.sessions(_user(db_store, 2).id).read(talk.id)
