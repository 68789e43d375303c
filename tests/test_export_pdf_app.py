"""The plan's PDF as the running app builds it (issue #25): the sample inventory with its
cost quotes and the suggested target, the offline coordinator's plan (its method is the
engine's action table, its reasoning the summary, the target path and the SBCE texts), and
Altair's data transformer as Streamlit leaves it while it draws a chart."""

from __future__ import annotations

import io
import re
import threading
from datetime import UTC, datetime

import altair as alt
import pandas as pd
import pytest
from PIL import Image
from pypdf import PdfReader

from application import inventories
from application.exports import plan_docx, plan_markdown, plan_pdf
from application.exports.actions import compact_actions_table
from application.exports.blocks import Table, parse, plain
from application.plan_charts import chart_png, chart_spec, macc_chart, macc_data
from application.planning import default_target, plan_inputs
from assets import SAMPLE_COSTS_PATH, SAMPLE_NAME, SAMPLE_PATH
from engine.actions import build_plan_actions
from engine.actions.model import PlanActions
from engine.agents.catalog import COORDINATOR
from engine.agents.request import AgentRequest
from engine.dto import AekoImprovementPlan
from engine.formatting import number
from engine.inventory import Inventory
from engine.offline.agents import coordinator
from engine.protocol import parse_plan

_COST = (0xD9, 0x5F, 0x02)  # the MACC's positive-cost bars
_SAVING = (0x1B, 0x9E, 0x77)
_ACTIONS = {"pt": "Ações", "en": "Actions"}
_QUESTION = {"pt": "", "en": "Write the improvement plan in English, please."}


@pytest.fixture(scope="module")
def inventory() -> Inventory:
    data = SAMPLE_PATH.read_bytes()
    return inventories.load(SAMPLE_NAME, data, gwp_set="AR5", ch4_origin="general")


@pytest.fixture(scope="module")
def actions(inventory) -> PlanActions:
    costs = (SAMPLE_COSTS_PATH.name, SAMPLE_COSTS_PATH.read_bytes())
    inputs = plan_inputs(inventory, default_target(inventory), None, costs)
    return build_plan_actions(inventory, target=inputs.target, costs=inputs.costs)


def _plan(inventory: Inventory, actions: PlanActions, lang: str) -> AekoImprovementPlan:
    request = AgentRequest(
        agent=COORDINATOR, flow="inventory", successors=(), question=_QUESTION[lang],
        inventory=inventory, actions=actions,
    )  # fmt: skip
    fields = parse_plan(coordinator(request)).fields
    return AekoImprovementPlan(
        id_external_inventory=1, updated_at=datetime(2025, 3, 4, tzinfo=UTC), **fields
    )


@pytest.fixture(scope="module")
def plans(inventory, actions) -> dict[str, AekoImprovementPlan]:
    return {lang: _plan(inventory, actions, lang) for lang in ("pt", "en")}


@pytest.fixture
def streamlit_transformer():
    """Altair's data transformer as ``st.altair_chart`` switches it, process-wide, while it
    serialises a chart (streamlit.elements.vega_charts): a data frame becomes a reference
    to a data set Streamlit keeps for itself."""
    from streamlit.elements import vega_charts

    alt.data_transformers.register("to_arrow_dataset", vega_charts._to_arrow_dataset)
    with alt.data_transformers.enable("to_arrow_dataset", datasets={}):
        yield


def _pixels(png: bytes | Image.Image, rgb: tuple[int, int, int]) -> int:
    image = png if isinstance(png, Image.Image) else Image.open(io.BytesIO(png))
    counts = image.convert("RGB").getcolors(1 << 24) or []
    return sum(
        n for n, colour in counts if max(abs(a - b) for a, b in zip(colour, rgb, strict=True)) < 8
    )


def _text(data: bytes) -> str:
    return " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages
    )


# --------------------------------------------------------------------------------------------
# The chart under Streamlit's data transformer
# --------------------------------------------------------------------------------------------


def _named_data(spec: object) -> list[str]:
    if isinstance(spec, dict):
        own = (
            [spec["data"]["name"]]
            if isinstance(spec.get("data"), dict) and "name" in spec["data"]
            else []
        )
        return own + [name for value in spec.values() for name in _named_data(value)]
    if isinstance(spec, list):
        return [name for value in spec for name in _named_data(value)]
    return []


def test_the_macc_spec_carries_its_bars_inline_under_streamlit_s_transformer(
    actions, streamlit_transformer
):
    spec = chart_spec(macc_chart(actions, "pt"))
    datasets = spec["datasets"]
    # Every data set a layer names is in the spec itself, none left in Streamlit's keeping.
    assert _named_data(spec) and set(_named_data(spec)) <= set(datasets)
    drawn = {row["measure"] for rows in datasets.values() for row in rows if "measure" in row}
    assert drawn == {row["measure"]["pt"] for row in macc_data(actions)}
    assert len(drawn) == 10


def test_the_macc_png_has_its_bars_under_streamlit_s_transformer(actions):
    plain_png = chart_png(macc_chart(actions, "pt"))
    from streamlit.elements import vega_charts

    alt.data_transformers.register("to_arrow_dataset", vega_charts._to_arrow_dataset)
    with alt.data_transformers.enable("to_arrow_dataset", datasets={}):
        app_png = chart_png(macc_chart(actions, "pt"))
    assert app_png == plain_png
    # The bars, not only the legend's two swatches (a few hundred pixels each at scale 2).
    assert _pixels(app_png, _COST) > 20_000 and _pixels(app_png, _SAVING) > 5_000


def test_the_pdf_s_macc_has_bars_under_streamlit_s_transformer(
    actions, plans, streamlit_transformer
):
    data = plan_pdf(plans["pt"], title="Plano", lang="pt", actions=actions)
    pictures = [image.image for page in PdfReader(io.BytesIO(data)).pages for image in page.images]
    assert len(pictures) == 2  # the MACC, then the target path
    macc = pictures[0]
    assert _pixels(macc, _COST) > 20_000 and _pixels(macc, _SAVING) > 5_000


def test_a_chart_drawn_while_streamlit_draws_its_own_in_another_thread_keeps_its_data(actions):
    """Streamlit's script threads switch the transformer under a lock of their own; an
    export on another thread never takes it. Its spec must not depend on that moment."""
    from streamlit.elements import vega_charts

    frame = pd.DataFrame({"x": list(range(50)), "y": list(range(50))})
    page_chart = alt.Chart(frame).mark_line().encode(x="x:Q", y="y:Q")
    stop = threading.Event()

    def draw_page() -> None:
        while not stop.is_set():
            vega_charts._convert_altair_to_vega_lite_spec(page_chart)

    drawer = threading.Thread(target=draw_page, daemon=True)
    drawer.start()
    try:
        names = {row["measure"]["pt"] for row in macc_data(actions)}
        for _ in range(15):
            spec = chart_spec(macc_chart(actions, "pt"))
            rows = [row for rows in spec["datasets"].values() for row in rows]
            assert {row["measure"] for row in rows if "measure" in row} == names
    finally:
        stop.set()
        drawer.join()


# --------------------------------------------------------------------------------------------
# Each computed section once, the action table as a table
# --------------------------------------------------------------------------------------------

_ONCE = {
    "pt": ["Ações calculadas", "Δ Opex negativo é economia", "Prontidão para o SBCE",
           "Meta e trajetória", "Fonte: Lei nº 15.042", "Método", "Raciocínio"],
    "en": ["Computed actions", "A negative Δ Opex is a saving", "SBCE readiness",
           "Target and trajectory", "Source: Lei nº 15.042", "Method", "Reasoning"],
}  # fmt: skip


_MOVED = {
    "pt": re.compile(r"O que esta seção citava do cálculo está adiante, uma vez só, em: ([^.]+)\."),
    "en": re.compile(
        r"What this section quoted from the computation is printed once, further on, in: ([^.]+)\."
    ),
}


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_pdf_prints_each_computed_section_once(actions, plans, lang):
    plan = plans[lang]
    # The plan quotes the engine's texts: the summary, the action table, the path, SBCE.
    assert _ONCE[lang][0] in plan.reasoning and "| --- |" in plan.method
    text = _text(plan_pdf(plan, title="Plano", lang=lang, actions=actions))
    # The method and the reasoning say where what they quoted went.
    moved = _MOVED[lang]
    assert [where.split("; ")[0] for where in moved.findall(text)] == [_ACTIONS[lang]] * 2
    text = moved.sub("", text)
    for words in _ONCE[lang]:
        assert text.count(words) == 1, words
    # The target table's last row (its year, what it allows, what is expected) once.
    last = max(actions.path, key=lambda point: point.year)
    row = " ".join(
        [str(last.year), *(number(v, lang=lang) for v in (last.allowed_tco2e, last.expected_tco2e))]
    )
    assert text.count(row) == 1


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_docx_and_markdown_print_each_computed_section_once(actions, plans, lang):
    plan = plans[lang]
    markdown = plan_markdown(plan, title="Plano", lang=lang, actions=actions)
    document = __import__("docx").Document(
        io.BytesIO(plan_docx(plan, title="Plano", lang=lang, actions=actions))
    )
    words = "\n".join(p.text for p in document.paragraphs)
    for summary in (_ONCE[lang][0],):
        assert markdown.count(summary) == 1 and words.count(summary) == 1
    # One action table each: the Word document's tables are the actions, the MACC's bars,
    # the target path.
    header = "Linhas do inventário" if lang == "pt" else "Inventory rows"
    assert sum(header in t.rows[0].cells[1].text for t in document.tables) == 1
    assert markdown.count(f"| {header}") == 1


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_action_table_is_a_table_with_whole_words(actions, plans, lang):
    data = plan_pdf(plans[lang], title="Plano", lang=lang, actions=actions, compress=False)
    text = _text(data)
    assert "|" not in text  # no row printed as text between pipes
    assert b"DejaVuSansMono" not in data  # nor anything in the monospace face
    table = next(b for b in parse(compact_actions_table(actions, lang)) if isinstance(b, Table))
    printed = set(re.findall(r"\w+", text))
    for cells in (table.header, *table.rows):
        for cell in cells:
            for word in re.findall(r"\w+", plain(cell)):
                assert word in printed, word  # never cut in two across lines
    # An action on many inventory rows names two sources and counts the rest.
    more = "linhas" if lang == "pt" else "rows"
    assert re.search(rf"\+\d+ {more}", text)


def test_the_compact_table_counts_the_rows_it_does_not_name(actions):
    table = next(b for b in parse(compact_actions_table(actions, "pt")) if isinstance(b, Table))
    for action, row in zip(actions.actions, table.rows, strict=True):
        cell = plain(row[1])
        named = len({(ref.source, ref.facility) for ref in action.rows})
        if named <= 2:
            assert "+" not in cell
        else:
            shown = re.search(r"\+(\d+) linhas?$", cell)
            assert shown is not None, cell
            first_two = list(dict.fromkeys((ref.source, ref.facility) for ref in action.rows))[:2]
            hidden = sum(1 for ref in action.rows if (ref.source, ref.facility) not in first_two)
            assert int(shown.group(1)) == hidden


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_sample_plan_s_pdf_takes_the_pages_its_content_needs(actions, plans, lang):
    """15 pages before #25 (the action table twice, once as monospace rows; the summary,
    the target table and SBCE twice; the table at eleven narrow columns on five pages)."""
    reader = PdfReader(io.BytesIO(plan_pdf(plans[lang], title="Plano", lang=lang, actions=actions)))
    assert len(reader.pages) <= 9
    # The action table (from the "Ações" heading to the MACC's) on at most two pages.
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]
    start = next(i for i, page in enumerate(pages) if _ONCE[lang][0] in page)
    macc = "Curva de custo marginal" if lang == "pt" else "Marginal abatement cost curve"
    end = next(i for i, page in enumerate(pages) if page.startswith(macc) or f" {macc}" in page)
    assert end - start <= 2
