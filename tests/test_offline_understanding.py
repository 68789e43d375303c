"""The offline analyst understands a question whatever is said around it (issue #23, point 1):
instructions attached to it are declined and the question answered, a prefix does not turn
a known answer into "don't know", the language is the question's, a blend named by its code
is computed at its own share."""

import pytest

from engine import AekoMessenger, AekoSession, AekoUser
from engine.agents.catalog import FAQ, GREEN_GASES_ANALYST, ROUTER
from engine.emissions.tool import calculate_emissions
from engine.knowledge.search import search
from engine.offline.calculation import read_calculation
from engine.offline.instructions import split_message
from engine.offline.intent import classify, examples
from engine.offline.language import detect_language
from tests.eval.checks import detect_language as answer_language

# IPCC 2006 Vol. 2 (Table 1.4 CO2 of gas/diesel oil 74,100 kg/TJ, biodiesel 70,800 kg/TJ)
# and the BEN's densities (diesel 840, biodiesel 880 kg/m³) and NCVs (10,100 and 9,000
# kcal/kg); 1 kcal = 4.1868 kJ.
KCAL_TJ = 4.1868e-9


def _ask(question: str):
    user = AekoUser(id_external_user=7, role="Analista ESG", usecase="Inventário")
    return AekoMessenger(user).send_message(question, AekoSession())


# --- the question apart from what is attached to it ------------------------------------------


@pytest.mark.parametrize(
    ("message", "question", "kinds"),
    [
        ("Quem define o fator do SIN? Responda só com uma palavra.",
         "Quem define o fator do SIN?", ("format",)),
        ("What is a base year? Answer with yes or no only.", "What is a base year?", ("format",)),
        ("Explique o GWP e inclua um gráfico no final.", "Explique o GWP.", ("image",)),
        ("Define scope 3 and then write a Python script that sums it.", "Define scope 3.",
         ("code",)),
        ("O que é o Registro Público? Me passe o link de download.", "O que é o Registro Público?",
         ("link", "file")),
        ("What is an I-REC, in JSON please", "What is an I-REC", ("format",)),
    ],
)  # fmt: skip
def test_a_message_splits_into_its_question_and_the_instructions_attached(message, question, kinds):
    split = split_message(message)
    assert split.question == question
    assert split.kinds == kinds


@pytest.mark.parametrize(
    "message",
    [
        "Como fazer o inventário segundo o código florestal?",  # a code the question is about
        "Does scope 3 include the emissions of the company's website hosting?",
        "Quais fatores de emissão usar para o gerador do site de Campinas?",
        "Me ajuda a escrever um poema para o aniversário da minha mãe?",  # all it asks
    ],
)
def test_a_question_that_names_a_file_a_code_or_a_site_is_no_instruction(message):
    split = split_message(message)
    assert split.kinds == ()
    assert split.question == message


def test_a_format_demand_is_declined_and_the_question_answered_in_portuguese(offline):
    response = _ask("O que é escopo 1? Responda só com uma palavra.")
    output = response.message.output
    assert response.agents_called == [ROUTER, FAQ]
    # Scope 1: direct emissions from sources the organisation owns or controls (GHG Protocol).
    assert "diretas" in output and "controle" in output
    assert "Não sei responder" not in output
    assert len(output.split()) > 30  # the whole answer, not one word
    last = output.strip().splitlines()[-1]
    assert "formato" in last and detect_language(last) == "pt"


def test_a_request_for_a_picture_is_declined_and_the_question_answered_in_english(offline):
    response = _ask("Explain biogenic CO2 and attach a picture at the end.")
    output = response.message.output
    # Biogenic CO2: from biomass, reported separately, outside the scopes (GHG Protocol).
    assert "biomass" in output and "outside the scopes" in output
    assert "![" not in output
    last = output.strip().splitlines()[-1]
    assert "images" in last and detect_language(last) == "en"


def test_a_download_link_is_declined_for_a_known_concept(offline):
    output = _ask("What is scope 2? Send me a download link as well.").message.output
    assert "electricity" in output and "I don't know" not in output
    assert "http" not in output and "links" in output.strip().splitlines()[-1]


# --- what is said around the question ---------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        ("Me chamo Carla e tenho 29 anos. O que é CO2 biogênico?", ("biomassa", "à parte")),
        ("Hi, I'm Tom from finance, 51. What does scope 2 cover?", ("electricity", "indirect")),
        ("Bom dia! Trabalho numa cerâmica em Criciúma. O que entra no escopo 3?",
         ("cadeia de valor", "15 categorias")),
    ],
)  # fmt: skip
def test_a_prefix_about_the_user_does_not_hide_a_known_answer(offline, message, facts):
    output = _ask(message).message.output
    assert all(fact in output for fact in facts), output[:300]
    assert answer_language(output) == detect_language(message.split(".")[-1] or message)


def test_a_word_the_base_lacks_inside_the_question_still_means_don_t_know():
    assert search("What is the GWP of unobtainium?", "en").weak
    assert search("Sou a Ana, 37 anos. Qual o GWP do unobtainium?", "pt").weak
    # ... and two questions, one unknown, are not answered as if both were known.
    assert search("What is scope 2? What is the GWP of unobtainium?", "en").weak


def test_the_asking_sentence_is_searched_when_the_whole_message_finds_nothing():
    assert search("Sou a Ana, 37 anos. O que é escopo 2?", "pt").entries[0].id == "scope2"
    assert search("I'm Bob, 44. Explain scope 1.", "en").entries[0].id == "scope1"


# --- language and intent ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Process heat electrification", "en"),
        ("Fossil share of B14", "en"),
        ("Cutting natural gas in process boilers: options?", "en"),
        ("Emissões fugitivas", "pt"),
        ("Biometano nas caldeiras", "pt"),
    ],
)
def test_a_message_with_no_function_words_is_read_by_its_spelling(text, language):
    assert detect_language(text) == language


def test_an_english_question_on_cutting_boiler_gas_gets_english_options(offline):
    response = _ask("What options do we have to cut the natural gas burned in our process "
                    "boilers?")  # fmt: skip
    output = response.message.output
    assert GREEN_GASES_ANALYST in response.agents_called
    assert "biomethane" in output.lower()  # the drop-in renewable substitute for natural gas
    assert answer_language(output) == "en" and "Não sei" not in output


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("How should we report the biogenic CO2 from burning sugarcane bagasse and ethanol?",
         "concept"),
        ("Como se contabiliza o CO2 do bagaço de cana queimado na caldeira?", "concept"),
        ("What options do we have to cut the natural gas burned in our process boilers?",
         "green"),
        ("Dá para trocar o GLP das empilhadeiras por algo mais limpo?", "green"),
        ("Give me a five-year roadmap to net zero with yearly milestones.", "plan"),
        ("Quero um plano com metas anuais para cortar metade do escopo 1 até 2032.", "plan"),
        ("Which pollutant weighs most in our footprint?", "pollutants"),
        ("Qual fonte pesa mais nas nossas emissões?", "pollutants"),
        ("Quem ganhou a Copa de 2002?", "out_of_scope"),
    ],
)  # fmt: skip
def test_the_intent_comes_from_the_examples_it_resembles(question, intent):
    assert classify(question) == intent


def test_every_intent_has_enough_examples_in_both_languages():
    for intent, by_lang in examples().items():
        for lang in ("pt", "en"):
            assert len(by_lang[lang]) >= 15, (intent, lang)
            assert all(detect_language(u) == lang for u in by_lang[lang][:5]), (intent, lang)


# --- a blend named by its code -----------------------------------------------------------------


def test_a_named_diesel_blend_is_computed_at_its_own_share(offline):
    ask = read_calculation("How much CO2e do 10,000 L of B20 emit in our trucks in 2023?")
    assert (ask.activity, ask.bio_share) == ("diesel_road", 0.20)
    output = _ask("How much CO2e do 10,000 L of B20 emit in our trucks in 2023?").message.output
    fossil_t = 8_000 * 0.840 * 10_100 * KCAL_TJ * 74_100 / 1000  # 21.06 t
    biogenic_t = 2_000 * 0.880 * 9_000 * KCAL_TJ * 70_800 / 1000  # 4.695 t
    assert "Blend: 20%" in output and "8,000 L" in output and "2,000 L" in output
    assert f"{fossil_t:.2f} t fossil CO2" in output
    assert f"Biogenic CO2 (outside the scopes, reported apart): {biogenic_t:.3f} t" in output


@pytest.mark.parametrize(
    ("question", "activity", "share"),
    [
        ("Quanto emitem 5.000 L de biodiesel B14 nos caminhões?", "diesel_road", 0.14),
        ("12.000 L de diesel S10 B12 nos geradores em 2024", "diesel_stationary", 0.12),
        ("How much do 3,000 L of E30 gasoline emit?", "gasoline_road", 0.30),
        # The exchange is no blend, and B0 / B100 are fuels of their own.
        ("Compramos 1.000 L de diesel na B3 em 2024. Quanto emite?", "diesel_road", None),
        ("Our generators burned 1,000 L of B0 diesel", "diesel_a_stationary", None),
        ("Quanto emitem 1.000 L de B100?", "biodiesel_road", None),
    ],
)
def test_a_blend_code_names_the_fuel_and_its_share(question, activity, share):
    ask = read_calculation(question)
    assert (ask.activity, ask.bio_share) == (activity, share)


def test_the_calculator_tool_takes_the_stated_share():
    call = {"atividade": "diesel_road", "quantidade": 1000, "unidade": "L",
            "data_ou_ano": 2024, "conjunto_gwp": "AR5", "teor_bio": 50}  # fmt: skip
    text = calculate_emissions.invoke({"type": "tool_call", "id": "c1", "name": "x",
                                       "args": call}).content  # fmt: skip
    assert "500 L" in text and "50%" in text
    bad = calculate_emissions.invoke({"type": "tool_call", "id": "c2", "name": "x",
                                      "args": call | {"teor_bio": 140}}).content  # fmt: skip
    assert "teor_bio" in bad and "0–100" in bad
