"""The bot's shape, as docs/architecture.md draws it: layers that import downwards only (the client
imports the service, never storage; the service never the client), no import cycle (also through
an import put off into a function), no mixins, no module over 400 lines."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"
MAX_LINES = 400


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in sorted(BOT.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name | ast.Attribute) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(node: ast.Import | ast.ImportFrom, module: str) -> Iterator[str]:
    """The project modules an import statement of ``module`` names: ``from bot.service import moves``
    names ``bot.service.moves`` (a module), ``from bot.storage import open_storage`` the package
    ``bot.storage`` (a name it defines), as tools that check import layers count them."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name in MODULES)
        return
    if node.level:  # relative: from the module's package
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    for alias in node.names:
        if f"{base}.{alias.name}" in MODULES:
            yield f"{base}.{alias.name}"
        elif base in MODULES:
            yield base


def _imports(module: str) -> tuple[set[str], set[str]]:
    """What ``module`` imports when it runs (not the imports for type checkers only), and the
    project modules it imports inside a function."""
    tree = ast.parse(MODULES[module].read_text())
    at_import: set[str] = set()
    inside: set[str] = set()

    def visit(nodes: list[ast.stmt], in_function: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _type_checking(node):
                visit(node.orelse, in_function)
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                (inside if in_function else at_import).update(_imported(node, module))
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None)
                if isinstance(children, list):
                    nested = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                    visit([c for c in children if isinstance(c, ast.stmt | ast.excepthandler)], nested)  # type: ignore[misc]

    visit(tree.body, False)
    return at_import - {module}, inside


GRAPH = {m: _imports(m)[0] | _imports(m)[1] for m in MODULES}
"""Who imports whom: when a module runs, or later inside a function (an import put off to the
first call, for a heavy dependency, still belongs to the graph: it does not dodge a cycle)."""


def test_no_module_of_the_bot_is_over_400_lines() -> None:
    long = {m: n for m, p in MODULES.items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, long


def test_the_bot_has_no_import_cycle() -> None:
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(module: str) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(GRAPH[module]):
            if state.get(other) == 1:
                cycle = [*path[path.index(other) :], other]
                raise AssertionError(" → ".join(cycle))
            if other not in state:
                walk(other)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            walk(module)


WEB_RULES = {("web", "client"), ("web", "storage"), ("service", "web"), ("storage", "web")}
"""The web server (`bot.web`) is a layer beside the Discord side: like it, above the service, which
it asks (never the storage); it knows no Discord object, so it imports nothing of the client (the
client starts it and attaches to it); neither the service nor the storage knows it is there. (Its
settings module is read by `bot.config`, a module of no layer, as the others' settings are.)"""


def test_the_layers_import_downwards_only() -> None:
    def layer(module: str) -> str:
        return module.split(".")[1] if module.count(".") else ""

    wrong = sorted(
        (m, o) for m, others in GRAPH.items() for o in others
        if (layer(m), layer(o)) in {("client", "storage"), ("service", "client"), ("storage", "client"),
                                    ("storage", "service"), *WEB_RULES}
    )  # fmt: skip
    assert not wrong, wrong


def test_no_class_of_the_bot_is_a_mixin() -> None:
    """A class has at most one base of the project's own (composition, not mixins)."""
    ours = {node.name for p in MODULES.values() for node in ast.walk(ast.parse(p.read_text()))
            if isinstance(node, ast.ClassDef)}  # fmt: skip
    mixed = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).split("[")[0].rpartition(".")[2] for b in node.bases]
                if node.name.endswith("Mixin") or sum(b in ours for b in bases) > 1:
                    mixed.append(f"{module}.{node.name}")
    assert not mixed, mixed
