"""One language at a time, in its own notation (issue #25, point 3): a page in Portuguese
shows no English running words, no internal ids and no pint spellings, its numbers with a
decimal comma; the same page in English is all English; the language chosen is kept in the
user's profile, so a new browser session opens in it."""

import re

import pandas as pd

from components.factors import unit_text, validity_text
from tests.app_pages import run_app

# What only the factor files' own (English) words or the code would put on a page.
ENGLISH_WORDS = ("as provided", "as transcribed", "as quoted", "decision of", "Table ")
INTERNAL_IDS = re.compile(r"\*\*\d|diesel@|_share\b|\w+_\w+\.\w+|@road|natural_gas")
# A number as Portuguese writes it: 74.100, 3,9, 0,0312 (never 3.9 or 74,100)
_PT_NUMBER = re.compile(r"\d{1,3}(?:\.\d{3})*(?:,\d+)?")


def _frame_text(frame: pd.DataFrame) -> str:
    return "\n".join(" | ".join(map(str, row)) for row in frame.astype(str).values)


def _calculator(lang: str, period: str):
    app = run_app("pages/calculator.py")
    app.session_state["lang"] = lang
    app.text_input[0].set_value(period).run()
    assert not app.exception, app.exception
    factors = next(
        d.value for d in app.dataframe if ("Fonte" if lang == "pt" else "Source") in d.value.columns
    )
    how = "\n".join(m.value for m in app.markdown)
    return factors, how


def test_a_portuguese_factor_table_has_no_english_ids_or_dot_decimals(app_env):
    factors, how = _calculator("pt", "2018-06")  # B10, by a CNPE decision cited in English
    text = _frame_text(factors)
    for words in ENGLISH_WORDS:
        assert words not in text and words not in how, words
    assert not INTERNAL_IDS.search(text), INTERNAL_IDS.search(text)
    # the source's title as published; our words in Portuguese
    assert "2006 IPCC Guidelines for National Greenhouse Gas Inventories" in text
    assert "Tabela 3.2.2" in text
    assert "Decisão do CNPE de 9 de novembro de 2017" in text
    assert "conforme a revisão técnica da equipe" in text
    # units as people write them, values in the Portuguese notation
    rows = set(zip(factors["Fator"], factors["Valor"], factors["Unidade"], strict=True))
    assert {("fator CH4", "3,9", "kg CH4/TJ"), ("densidade", "840", "kg/m³")} <= rows
    assert ("teor de biodiesel", "10", "%") in rows
    assert "74.100" in set(factors["Valor"])
    assert all(_PT_NUMBER.fullmatch(v) for v in factors["Valor"]), list(factors["Valor"])
    # the validity with Portuguese dates
    assert "01/03/2018 – 31/08/2019" in set(factors["Validade"])


def test_the_same_table_in_english_is_all_english(app_env):
    factors, how = _calculator("en", "2018-06")
    text = _frame_text(factors)
    assert "CNPE decision of 9 November 2017" in text
    assert "Table 3.2.2" in text and "Tabela" not in text
    assert "conforme" not in text and "teor" not in text
    rows = set(zip(factors["Factor"], factors["Value"], factors["Unit"], strict=True))
    assert ("CH4 factor", "3.9", "kg CH4/TJ") in rows
    assert "74,100" in set(factors["Value"])
    assert "Blend: 10% (biodiesel share; CNPE decision of 9 November 2017" in how


def test_units_are_written_as_people_write_them():
    assert unit_text("kg/m**3", "-", "pt") == "kg/m³"
    assert unit_text("t/MWh", "CO2", "en") == "t CO2/MWh"
    assert unit_text("kg/TJ", "CO2_biogenic", "pt") == "kg CO2 biogênico/TJ"
    assert unit_text("kg/TJ", "CO2_biogenic", "en") == "kg biogenic CO2/TJ"
    assert unit_text("percent", "-", "en") == "%"
    assert unit_text("percent/year", "-", "pt") == "%/ano"
    assert unit_text("kg CO2e/kg", "HFC32", "pt") == "kg CO2e/kg"
    assert unit_text("kcal/kg", "-", "pt") == "kcal/kg"


def test_a_validity_reads_with_the_language_s_dates():
    assert validity_text("", "pt") == "—"
    assert validity_text("2025-08-01 –", "pt") == "desde 01/08/2025"
    assert validity_text("2025-08-01 –", "en") == "from 2025-08-01"
    assert validity_text("2024-03-01 – 2025-07-31", "pt") == "01/03/2024 – 31/07/2025"
    assert validity_text("2024-03-01 – 2025-07-31", "en") == "2024-03-01 – 2025-07-31"


def test_an_inventory_s_factors_name_the_activity_not_its_id(app_env):
    from tests.test_app import _ACTIVITY_CSV, _inventory_page

    for lang, fuel, words in (
        ("pt", "Óleo diesel B (transporte rodoviário)", ("fator CO2", "Tabela")),
        ("en", "Diesel B (road transport)", ("CO2 factor", "Table")),
    ):
        app = _inventory_page("frota.csv", _ACTIVITY_CSV, lang=lang)
        source = "Fonte" if lang == "pt" else "Source"
        factors = next(d.value for d in app.dataframe if source in d.value.columns)
        activity = "Atividade" if lang == "pt" else "Activity"
        assert fuel in set(factors[activity])
        assert not any("_" in a for a in factors[activity])
        text = _frame_text(factors)
        assert all(w in text for w in words)
        assert "**" not in text


def test_the_language_chosen_is_kept_in_the_profile_for_the_next_session(app_env):
    first = run_app("pages/settings.py")
    assert first.title[0].value == "Configurações"
    first.radio[0].set_value("en").run()
    assert first.title[0].value == "Settings"

    # a new browser session, the same user: it opens in English, on every page
    second = run_app()
    assert second.title[0].value == "ESG chat"
    second.switch_page("pages/calculator.py").run()
    assert second.title[0].value == "Emissions calculator"

    # and back to Portuguese from that session: the next one opens in Portuguese
    second.switch_page("pages/settings.py").run()
    second.radio[0].set_value("pt").run()
    third = run_app()
    assert third.title[0].value == "Chat ESG"


def test_the_memory_date_field_uses_the_language_s_day_order(app_env):
    app = run_app("pages/settings.py")
    pt_format = next(d for d in app.date_input if d.label == "Expira em").proto.format
    assert pt_format == "DD/MM/YYYY"
    app.radio[0].set_value("en").run()
    en_format = next(d for d in app.date_input if d.label == "Expires on").proto.format
    assert en_format == "YYYY-MM-DD"


def test_an_answer_s_factor_sources_are_named_in_the_interface_language(app_env):
    app = run_app()
    app.chat_input[0].set_value("Quanto emitem 1000 L de diesel em caminhões em 2024?").run()
    assert not app.exception, app.exception

    def sources() -> str:
        captions = [c.value for c in app.caption]
        return next(c for c in reversed(captions) if "material/calculate" in c)

    answer = "\n".join(m.value for m in app.chat_message[-1].markdown)
    assert "74.100" in answer and "Tabela 3.2.1" in answer
    assert not any(w in answer for w in ENGLISH_WORDS), answer
    assert not INTERNAL_IDS.search(answer), INTERNAL_IDS.search(answer)
    pt = sources()
    assert "teor de biodiesel: 14%" in pt and "fator CH4: 3,9 kg CH4/TJ" in pt
    assert "Tabela 3.2.2" in pt and "conforme a revisão técnica da equipe" in pt
    assert not INTERNAL_IDS.search(pt), INTERNAL_IDS.search(pt)
    assert "percent" not in pt and "as provided" not in pt

    app.session_state["lang"] = "en"
    app.run()
    en = sources()
    assert "biodiesel share: 14%" in en and "CH4 factor: 3.9 kg CH4/TJ" in en
    assert "Table 3.2.2" in en and "teor" not in en


def test_every_portuguese_citation_names_a_real_source_and_keeps_its_numbers():
    import csv
    import tomllib
    from pathlib import Path

    from engine.emissions.factors import default_library, portuguese_table

    data = Path(__file__).resolve().parents[1] / "engine/emissions/data"
    words = tomllib.loads((data / "source_words.toml").read_text(encoding="utf-8"))
    documents, tables = set(), set()
    for path in data.glob("*.csv"):
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                documents.add(row["document"])
                tables.add(row["table"])
    digits = re.compile(r"\d+")
    for english, portuguese in (*words["document"].items(), *words["table"].items()):
        assert english in documents | tables, f"no factor cites {english!r}"
        assert sorted(digits.findall(english)) == sorted(digits.findall(portuguese)), english
    # every table locator of the library reads in Portuguese, its numbers kept
    for table in tables - {""}:
        shown = portuguese_table(table)
        assert "Table" not in shown and "monthly" not in shown and "annual" not in shown, table
        assert sorted(digits.findall(table)) == sorted(digits.findall(shown)), table
    # no English running words left in a Portuguese citation of the library
    for factor in default_library().factors:
        cited = factor.source_in("pt")
        assert not any(w in cited for w in ENGLISH_WORDS), cited
        assert " decision" not in cited and "auction" not in cited, cited
