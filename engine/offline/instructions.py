"""A message split into the question it asks and the instructions attached to it.

Users tack demands onto a plain question: a format ("one word only", "só sim ou não"), or
something the analyst does not produce (an image, a link, a script, a file to download).
Left in, those words dilute the search and the intent; the analyst answers the question and
declines the rest in one sentence of the question's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from engine.protocol import fold
from engine.texts import Texts

Kind = Literal["format", "image", "link", "code", "file"]
_KINDS: tuple[Kind, ...] = ("image", "link", "code", "file", "format")

_IMAGE_MARKUP = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK_MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_HTML = re.compile(r"<[^<>]*>")
# Sentences end at . ! ? ; (not inside a number: "1.000 L"); a colon opens a new part too.
_ENDS = ".?!:;"
_SENTENCE = re.compile(r"(?<=[!?;])\s+|(?<=[.:])\s+")

# A verb that tells the assistant what to put in its reply, on folded words: imperatives
# and infinitives only, so "gerador" or "mandatory" never read as one.
_DO = (
    r"(?:add|include|insert|attach|append|put|send|give|provide|generate|create|write|make|"
    r"draw|show|share|paste|embed|end with|finish with|adicione|adiciona|adicionar|inclua|"
    r"incluir|insira|inserir|anexe|anexar|coloque|colocar|coloca|ponha|bote|acrescente|"
    r"envie|enviar|mande|manda|mandar|me de|de-me|me da|forneca|fornecer|gere|gerar|crie|"
    r"criar|escreva|escrever|faca|fazer|desenhe|desenhar|mostre|mostrar|me passe|me passa|"
    r"passe|compartilhe|cole|traga|termine com|finalize com)"
)
# What it asks to add, by kind; on folded text.
_OBJECTS: dict[Kind, str] = {
    "image": r"imagem|imagens|image|images|figura|figuras|figure|foto|fotos|photo|photos|"
    r"picture|pictures|ilustracao|illustration|logo|logotipo|emoji|emojis|desenho|drawing|"
    r"diagrama|diagram|grafico|chart",
    "link": r"link|links|url|urls|hyperlink|site|website|endereco web",
    "code": r"script|scripts|codigo|code|python|javascript|vba|macro|sql",
    "file": r"pdf|arquivo|arquivos|file|files|download|docx|planilha para baixar|"
    r"spreadsheet to download|excel file",
}
# The verb, up to four words, then the object: "add an image or a script at the end".
_ASKED_OBJECT = {
    kind: re.compile(rf"(?<![a-z]){_DO}(?:\s+[^\s]+){{0,4}}?\s+(?:{words})(?![a-z])")
    for kind, words in _OBJECTS.items()
}
# Requests that name the object without a verb: "link para download", "download link".
_BARE_OBJECT: dict[Kind, re.Pattern[str]] = {
    "link": re.compile(r"(?<![a-z])(?:link|url) (?:de|para|pra|for|to) (?:download|baixar)"),
    "file": re.compile(r"(?<![a-z])download (?:link|file)|(?<![a-z])(?:em|in|as a?) "
                       r"(?:pdf|docx)(?![a-z])"),
}  # fmt: skip
_UNITS = (
    r"(?:palavra|word|frase|sentence|linha|line|caracter|caractere|character|letra|letter|"
    r"topico|bullet|paragrafo|paragraph|numero|number)s?"
)
_FORMAT = re.compile(
    r"(?<![a-z])(?:"
    rf"(?:only|just|apenas|somente|so|in|em|com|with|using|usando|max|no maximo|at most|ate) "
    rf"(?:one|a single|uma|um|\d+|duas|dois|tres|two|three|poucas|few) {_UNITS}"
    r"|(?:reply|answer|respond|responda|responde|respondam)(?: me)? (?:only|just|apenas|"
    r"somente|so)(?![a-z])"
    r"|(?:only|just|apenas|somente|so) (?:com |with )?(?:sim ou nao|yes or no)"
    r"|(?:reply|answer|respond|responda|responde|diga|say)(?: \S+){0,2} (?:sim ou nao|yes or no)"
    r"|(?:sem|without) (?:explicacao|explicacoes|explanation|explanations|justificativa|"
    r"detalhes|details)"
    r"|(?:in|em|as|como|no formato(?: de)?|em forma de|in the form of) (?:a |an |um |uma )?"
    r"(?:json|xml|yaml|csv|caps|capital letters|letras maiusculas|rima|rhyme|poem|poema|"
    r"verso|verse|haiku|musica|song)"
    r")(?![a-z])"
)
# A clause starts anew at a comma, or at "and"/"e" before a verb telling the reply what to
# hold: "explain GWP and add a script at the end", "what is scope 2, in JSON please".
_JOINED = re.compile(
    rf",\s*|\s+(?:and then|e depois|and|e|then|depois|also|tambem|plus)\s+(?={_DO}(?![a-z]))"
)
# A clause asking something ("como fazer o inventário pelo código florestal?") is a question
# even when it names a file or a code.
_ASKING = re.compile(
    r"^(?:o que|que|qual|quais|como|quando|onde|por que|porque|quanto|quantos|quantas|quem|"
    r"what|which|how|when|where|why|who|is|are|does|do|did|should|must|"
    # a request to explain is the question, whatever length or shape it asks the reply in
    r"explain|explique|explica|explicar|describe|descreva|define|defina)(?![a-z])"
)


def _fold(text: str) -> str:
    """Folded character by character, so offsets match the original text."""
    chars = []
    for char in text:
        folded = fold(char)
        chars.append(folded if len(folded) == 1 else " " if not folded else char.lower())
    return "".join(chars)


@dataclass(frozen=True)
class Split:
    question: str  # what the message asks, markup and attached instructions gone
    instructions: tuple[str, ...]  # the attached demands, as written
    kinds: tuple[Kind, ...]  # what they ask for, each kind once

    @property
    def has_instructions(self) -> bool:
        return bool(self.kinds)


def _kinds_of(text: str) -> list[Kind]:
    folded = " ".join(_fold(text).split())
    if _ASKING.search(folded):
        return []
    found: list[Kind] = []
    for kind in _KINDS:
        if kind == "format":
            hit = _FORMAT.search(folded) is not None
        else:
            hit = _ASKED_OBJECT[kind].search(folded) is not None or (
                kind in _BARE_OBJECT and _BARE_OBJECT[kind].search(folded) is not None
            )
        if hit:
            found.append(kind)
    return found


def _clauses(sentence: str) -> list[str]:
    """The sentence cut before each joint; each piece keeps the joint it starts with, so the
    pieces kept join back as written."""
    cuts = [0, *(m.start() for m in _JOINED.finditer(_fold(sentence))), len(sentence)]
    return [sentence[a:b] for a, b in pairwise(cuts) if b > a]


def split_message(message: str) -> Split:
    """The question and the instructions attached to it. Markup (images, links, HTML) always
    goes; a sentence or clause that only tells how to shape the reply or asks for an image,
    link, script or file is an instruction, unless it is all the message holds."""
    kinds: list[Kind] = []
    if _IMAGE_MARKUP.search(message):
        kinds.append("image")
    if _URL.search(message) or _LINK_MARKUP.search(message):
        kinds.append("link")
    text = _IMAGE_MARKUP.sub(" ", message)
    text = _LINK_MARKUP.sub(r"\1", text)
    text = _HTML.sub(" ", _URL.sub(" ", text))
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in (s for s in _SENTENCE.split(text) if s.strip()):
        pieces = _clauses(sentence)
        left = []
        for piece in pieces:
            found = _kinds_of(piece)
            if found:
                dropped.append(piece.strip(" ,"))
                kinds += found
            else:
                left.append(piece)
        if left:
            joined = "".join(left).strip(" ,")
            # The sentence lost its end with the clause cut off it: end it again.
            end = sentence.rstrip()[-1]
            kept.append(joined if joined[-1] in _ENDS or end not in _ENDS else joined + end)
    if not dropped:  # the message as written: a pasted table keeps its lines
        return Split(text.strip() if kinds else message, (), tuple(dict.fromkeys(kinds)))
    if not kept:  # nothing but the demand: it is the question
        return Split(" ".join(text.split()), (), ())
    question = " ".join(" ".join(kept).split())
    return Split(question, tuple(dropped), tuple(dict.fromkeys(kinds)))


def question_of(message: str) -> str:
    return split_message(message).question


_TEXTS = Texts(
    "engine.offline.instructions",
    {
        "kind.image": {"pt": "imagens", "en": "images"},
        "kind.link": {"pt": "links", "en": "links"},
        "kind.code": {"pt": "scripts ou código", "en": "scripts or code"},
        "kind.file": {"pt": "arquivos para baixar", "en": "files to download"},
        "and": {"pt": " e ", "en": " and "},
        "objects": {"pt": "Não incluo {listed}", "en": "I don't include {listed}"},
        "format": {"pt": "Não sigo o formato pedido", "en": "I don't follow the requested format"},
        "and_format": {"pt": " nem sigo o formato pedido", "en": " or follow the requested format"},
        "declined": {
            "pt": "{refused}: respondo à pergunta por inteiro, em texto, com a fonte.",
            "en": "{refused}: I answer the question in full, in text, with its source.",
        },
    },
)


def declined(kinds: tuple[Kind, ...], lang: str) -> str:
    """One sentence declining the attached demands, in ``lang``; empty when there are none."""
    objects = [_TEXTS(f"kind.{kind}", lang) for kind in kinds if kind != "format"]
    shaped = "format" in kinds
    if not objects and not shaped:
        return ""
    and_ = _TEXTS("and", lang)
    listed = ", ".join(objects[:-1]) + and_ + objects[-1] if len(objects) > 1 else "".join(objects)
    refused = _TEXTS("objects", lang, listed=listed) if objects else _TEXTS("format", lang)
    if objects and shaped:
        refused += _TEXTS("and_format", lang)
    return _TEXTS("declined", lang, refused=refused)
