"""The engine is a library: no Streamlit, no database access, no environment reads."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN_IMPORTS = {"streamlit", "pymongo", "bson", "gridfs", "dotenv", "components", "pages"}


def _engine_modules():
    return sorted(ENGINE.rglob("*.py"))


def test_engine_imports_neither_the_app_nor_the_database():
    for path in _engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert not roots & FORBIDDEN_IMPORTS, f"{path}: imports {roots & FORBIDDEN_IMPORTS}"


def test_engine_reads_no_environment():
    for path in _engine_modules():
        source = path.read_text()
        for needle in ("os.environ", "getenv(", "load_dotenv"):
            assert needle not in source, f"{path} reads the environment ({needle})"
