"""``calcular``: arithmetic for the agents, so a figure of more than one step is a tool result
the run read (engine/grounding.py backs one step by itself, never a chain of them).

Expressions are parsed, never executed: numbers, + − × ÷, powers with small exponents,
parentheses, and ``round``, ``min``, ``max``, ``sum``, ``abs``.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

from langchain_core.tools import tool

from engine.formatting import number

TOOL_NAME = "calcular"
_MAX_CHARS = 400
_MAX_EXPONENT = 12
_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {
    "round": round,
    "min": min,
    "max": max,
    "sum": lambda *values: math.fsum(values),
    "abs": abs,
}


class ExpressionError(ValueError):
    """What the agent reads when its expression cannot be computed, and how to fix it."""


def evaluate(expression: str) -> float:
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("−", "-")
    if not text:
        raise ExpressionError("Expressão vazia.")
    if len(text) > _MAX_CHARS:
        raise ExpressionError(f"Expressão longa demais (até {_MAX_CHARS} caracteres).")
    if "," in text.replace(", ", ";"):  # "8.120,5": which separator is the decimal one?
        raise ExpressionError(
            "Use ponto como separador decimal e nenhum separador de milhar "
            "(8120.5 + 1310, não 8.120,5 + 1.310); separe argumentos com ', '."
        )
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as error:
        raise ExpressionError(f"Expressão inválida: {error.msg}.") from None
    try:
        value = _value(tree.body)
    except ZeroDivisionError:
        raise ExpressionError("Divisão por zero.") from None
    except OverflowError:
        raise ExpressionError("Resultado grande demais.") from None
    if not math.isfinite(value):
        raise ExpressionError("O resultado não é um número finito.")
    return value


def _value(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _value(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ExpressionError(f"Expoente acima de {_MAX_EXPONENT}.")
        return _BINARY[type(node.op)](left, right)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
        and node.args
    ):
        args = [_value(arg) for arg in node.args]
        if node.func.id == "round":
            if len(args) > 2:
                raise ExpressionError("round(x) ou round(x, casas).")
            return float(round(args[0], int(args[1])) if len(args) == 2 else round(args[0]))
        if node.func.id == "abs" and len(args) != 1:
            raise ExpressionError("abs(x) recebe um número.")
        return float(_FUNCTIONS[node.func.id](*args))
    raise ExpressionError(
        "Só números, + - * / ** (expoente até 12), parênteses e round, min, max, sum, abs."
    )


def result_text(expression: str, value: float) -> str:
    """The result in both notations, so a draft in either language quotes a number read."""
    plain = f"{value:.10g}"
    decimals = len(plain.partition(".")[2]) if "e" not in plain else 6
    return f"{expression.strip()} = {plain} (pt-BR: {number(value, decimals, 'pt')})"


@tool(TOOL_NAME)
def calculate(expressao: str) -> str:
    """Calcula uma expressão aritmética (ex.: "(8120.5 + 1310) / 12400 * 100") e devolve o
    resultado. Ponto decimal, sem separador de milhar; + - * / **, parênteses e round, min,
    max, sum, abs."""
    try:
        return result_text(expressao, evaluate(expressao))
    except ExpressionError as error:
        return f"Não calculado: {error}"
