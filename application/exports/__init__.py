"""Exports: an improvement plan as Markdown, DOCX and PDF, a conversation as Markdown.

Pure functions, no Streamlit. Every model- or user-written field is sanitized
(``application.safe_text``) before it is read; DOCX and PDF then read the sanitized Markdown
through one markdown-it-py parse (``blocks``). Given a plan's computed actions, each export
adds their sections after the plan's three (``actions``): the action table, the MACC (a PNG
in DOCX and PDF), the target path and the SBCE readiness; what a field of the plan quotes
of those is left to its section, printed once.
"""

from application.exports.conversation import conversation_markdown
from application.exports.docx import plan_docx
from application.exports.markdown import plan_markdown
from application.exports.pdf import plan_pdf

__all__ = ["conversation_markdown", "plan_docx", "plan_markdown", "plan_pdf"]
