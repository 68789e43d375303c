"""An inventory that is not reconciled is said to be so, naming its sheets, before any
figure: in the digest the agents read and in the offline analyst's answers about it."""

import pytest

from engine.inventory import load_inventory
from engine.inventory.notice import Reading
from engine.offline.own_data import own_data_answer

# Two lines under a Total row that says 1600 where they add to 1240 + 310 = 1550.
CONFLICT_CSV = "Fonte,Gás,t CO2e\nCaldeira,CO2,1240\nFrota,CO2,310\nTotal,,1600\n".encode()
# The same two lines without a Total row: reconciled against nothing, so only unverified.
PLAIN_CSV = "Fonte,Gás,t CO2e\nCaldeira,CO2,1240\nFrota,CO2,310\n".encode()
# Per-gas columns and a total, no unit anywhere: 2000 + 28·50 + 265·10 = 6050 (AR5).
AMBIGUOUS_CSV = b"Fonte,CO2,CH4,N2O,Total CO2e\nCaldeira,2000,50,10,6050\n"

PT = (
    "Atenção: inventário não conferido (conflito). Abas: comb.csv (conflito). Os números a "
    "seguir não estão provados pelos totais da própria planilha."
)
EN = (
    "Note: inventory not reconciled (conflict). Sheets: comb.csv (conflict). The figures "
    "below are not proven by the workbook's own totals."
)


@pytest.fixture(scope="module")
def conflict():
    inventory = load_inventory(CONFLICT_CSV, filename="comb.csv")
    assert inventory.status == "conflict"
    return inventory


def test_the_digest_opens_with_the_status_naming_the_sheet(conflict):
    digest = conflict.digest()
    assert digest.splitlines()[0] == (
        f"{PT} Diga isso ao usuário antes de citar qualquer número deste inventário."
    )
    assert digest.splitlines()[1] == "# Inventário de emissões (resumo para análise)"


def test_the_tightest_digest_still_opens_with_the_status(conflict):
    digest = conflict.digest(200)
    assert len(digest) <= 200
    assert digest.startswith("Atenção: inventário não conferido (conflito). Abas: comb.csv")


def test_an_ambiguous_sheet_is_named_first_in_the_digest():
    inventory = load_inventory(AMBIGUOUS_CSV, filename="amb.csv")
    assert (
        inventory.digest()
        .splitlines()[0]
        .startswith(
            "Atenção: inventário não conferido (unidade ambígua). Abas: amb.csv (unidade ambígua)."
        )
    )


@pytest.mark.parametrize(("lang", "notice"), [("pt", PT), ("en", EN)])
def test_the_offline_answer_about_the_inventory_starts_with_the_notice(conflict, lang, notice):
    question = "Quanto emitimos por escopo?" if lang == "pt" else "How much do we emit by scope?"
    answer = own_data_answer(question, conflict, lang)
    first, rest = answer.split("\n", 1)
    assert first == notice
    assert "1.550,0" in rest if lang == "pt" else "1,550.0" in rest  # 1240 + 310, the rows


def test_an_answer_with_no_matching_row_still_says_the_inventory_is_unproven(conflict):
    answer = own_data_answer("Quanto emitimos no escopo 3?", conflict, "pt")
    assert answer.splitlines()[0] == PT


def test_an_unverified_inventory_is_said_so_too():
    inventory = load_inventory(PLAIN_CSV, filename="plain.csv")
    assert inventory.status == "unverified"
    answer = own_data_answer("Quanto emitimos por escopo?", inventory, "pt")
    assert answer.startswith("Atenção: inventário não conferido (sem conferência).")


def test_the_reading_kept_in_a_summary_reads_back_the_same():
    reading = Reading("ambiguous", (("A", "ambiguous"), ("B", "conflict")))
    assert Reading.from_summary(reading.to_summary()) == reading
    # a summary saved before the sheets were kept still says the status
    assert Reading.from_summary({"status": "conflict"}) == Reading("conflict")
    assert Reading.from_summary({}) is None
    assert Reading("reconciled").notice("pt") == ""


def test_many_sheets_are_named_up_to_a_limit():
    sheets = tuple((f"Aba {n}", "unverified") for n in range(10))
    notice = Reading("unverified", sheets).notice("en", limit=3)
    assert "Sheets: Aba 0 (unverified); Aba 1 (unverified); Aba 2 (unverified); and 7 more." in (
        notice
    )
