"""The shape of engine/: its import graph, read with ``ast`` (no module is imported to draw it), and what the CLI
loads.

Layers, from the bottom: ``engine.core`` (results, statuses, errors, parameters, the registry) imports
nothing else of engine/; ``engine.serving`` (jobs and how they run) imports the core only;
``engine.search`` (the domain contract, the searches, ``solve``) imports no domain, and ``engine.domains``
(tiles, Rectangle-out, ...) no subject; the subjects (``engine.subjects``: research, meta, learned, classic)
register into the registries; ``app`` sits on top and nothing in engine/ knows it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from engine.serving.jobs import job_kinds

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
CORE = ("engine.core",)  # the vocabulary: imports nothing else of engine/
SERVING = ("engine.serving",)  # jobs and how they run: imports the core only
BASE = ("engine.core", "engine.serving", "engine.search", "engine.domains")
FRONT_ENDS = ("engine.cli",)  # the command line calls every subject, as the app does
#: every package under engine/subjects/ is a subject (a new one is covered by being made)
SUBJECTS = tuple(sorted(f"engine.subjects.{path.parent.name}"
                        for path in (ENGINE / "subjects").glob("*/__init__.py")))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    """The modules an import statement names: ``from a.b import c`` is the module a.b.c when that exists, else a.b."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    base = f"{package}.{node.module}" if node.level and node.module else (package if node.level else node.module)
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]


def imports(module: str, top_level_only: bool) -> set[str]:
    """What ``module`` imports. At the top level: every statement that runs when the module is imported (class
    bodies and ``if``/``try`` blocks included, ``if TYPE_CHECKING:`` not). A function-level import runs when the
    function is called, after every module has finished importing, so it cannot close an import cycle: the registry's
    lazy loading and the kernels imported when work runs rely on that, and the cycle test leaves them out."""
    tree = ast.parse(MODULES[module].read_text())
    found: set[str] = set()

    def visit(nodes) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.update(_imported(node, module))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if not top_level_only:
                    for inner in ast.walk(node):
                        if isinstance(inner, (ast.Import, ast.ImportFrom)):
                            found.update(_imported(inner, module))
            elif isinstance(node, ast.If) and _is_type_checking(node):
                continue
            elif isinstance(node, (ast.If, ast.Try, ast.ClassDef, ast.With, ast.For, ast.While)):
                visit(ast.iter_child_nodes(node))

    visit(tree.body)
    return found


def import_graph() -> dict[str, set[str]]:
    """engine module → the engine modules importing it loads first: the ones it names, and their parent packages
    (``import engine.domains.tiles.board`` runs engine/domains/tiles/__init__.py) unless the importer is inside that
    package."""
    graph = {}
    for module in MODULES:
        targets = set()
        for name in imports(module, top_level_only=True):
            if not name.startswith("engine"):
                continue
            parts = name.split(".")
            for depth in range(2, len(parts) + 1):
                target = ".".join(parts[:depth])
                if target in MODULES and target != module and not module.startswith(target + "."):
                    targets.add(target)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_graph_reader_sees_imports_and_cycles():
    """The test's own parts on known facts, so an empty graph cannot pass for a clean one."""
    graph = import_graph()
    assert "engine.domains.tiles.board" in graph["engine.domains.tiles.solving"]
    assert "engine.domains.tiles" in graph["engine.subjects.meta.solvers"]
    assert "engine.domains.tiles.solving" in graph["engine.subjects.meta.solvers"]
    assert "engine.core.registry" in graph["engine.serving.jobs"]
    # imported inside the solver functions only
    assert "engine.domains.tiles.kernel_drivers" not in graph["engine.domains.tiles.solvers"]
    assert "engine.domains.tiles.kernel_drivers" in imports("engine.domains.tiles.solvers", top_level_only=False)
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_engine():
    assert find_cycle(import_graph()) is None


def test_nothing_in_engine_imports_the_web_app():
    for module in MODULES:
        names = imports(module, top_level_only=False)
        assert not {n for n in names if n == "app" or n.startswith(("app.", "flask"))}, module


def test_search_imports_no_domain():
    """Not even inside a function: ``engine.search`` (the contract, the searches, ``solve``, the solve and compare
    jobs) reaches a domain's solvers and jobs through its registered kind, never by importing it."""
    for module in MODULES:
        if module.startswith("engine.search"):
            wrong = {n for n in imports(module, top_level_only=False) if n.startswith("engine.domains")}
            assert not wrong, (module, wrong)


def test_tiles_and_search_import_no_subject_package():
    """Not even inside a function: a subject adds itself to the base through the registries."""
    for module in MODULES:
        if module.startswith(BASE):
            wrong = {n for n in imports(module, top_level_only=False) if n.startswith(SUBJECTS)}
            assert not wrong, (module, wrong)


def registers_at_import(module: str) -> bool:
    """Whether a module registers an entry when imported: a top-level call of a register function, or a
    ``@job_kind``/``@warms_up`` decorator on a top-level function."""
    tree = ast.parse(MODULES[module].read_text())
    registering = {"register_solver", "register_heuristic", "register_domain", "register", "job_kind", "warms_up"}

    def called(node) -> str:
        target = node.func if isinstance(node, ast.Call) else node
        return getattr(target, "id", getattr(target, "attr", ""))

    for node in tree.body:
        calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)] if isinstance(node, (ast.Expr, ast.Assign)) \
            else []
        decorators = node.decorator_list if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else []
        if any(called(n) in registering for n in calls + decorators):
            return True
    return False


def test_every_module_that_registers_is_loaded_by_the_registry_and_every_subject_is_found():
    """No list to edit: a domain or subject is loaded by being a package in its folder, with its ``REGISTERS``."""
    done = subprocess.run([sys.executable, "-c", "import json, sys; from engine.core import registry; "
                           "registry.load_all(); print(json.dumps(sorted(sys.modules)))"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    loaded = set(json.loads(done.stdout))
    for module in MODULES:
        if module.startswith(("engine.domains.", "engine.subjects.")) and registers_at_import(module):
            assert module in loaded, f"{module} registers entries but no package's REGISTERS names it"
    assert {"engine.subjects.meta", "engine.subjects.learned", "engine.subjects.research",
            "engine.subjects.classic"} <= set(SUBJECTS) <= loaded


def run_cli_and_report_modules(*commands: list[str]) -> list[dict]:
    """Run CLI commands one after another in a fresh interpreter; after each, which heavy modules are loaded."""
    script = (
        "import contextlib, io, json, sys\n"
        "from engine.cli import main\n"
        f"for argv in {commands!r}:\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):\n"
        "        try:\n"
        "            code = main(argv)\n"
        "        except SystemExit as exit:\n"
        "            code = exit.code\n"
        "    print(json.dumps({'argv': argv, 'code': code, 'stdout': out.getvalue(),\n"
        "                      'loaded': [m for m in ('numba', 'flask', 'scipy.linalg') if m in sys.modules]}))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_cli_commands_that_need_no_kernel_import_neither_numba_nor_flask():
    runs = run_cli_and_report_modules(["--help"], ["check", "--size", "3x3", "1 2 3/4 5 6/7 0 8"],
                                      ["scramble", "--size", "3x3", "--seed", "1"], ["random", "--seed", "2"],
                                      ["jobs"], ["tables", "list"], ["solve", "--help"])
    assert [run["code"] for run in runs] == [0] * 7
    assert runs[1]["stdout"].startswith("solvable")
    assert "linear-conflict" in runs[-1]["stdout"] and "dpso" in runs[-1]["stdout"]  # help made from the registry
    assert [run["loaded"] for run in runs] == [[]] * 7


def test_a_cli_solve_runs_its_kernels_without_importing_scipy_linalg():
    """numba's first call checks SciPy's BLAS, which imported all of scipy.linalg (a quarter of a cold solve's CPU);
    the CLI loads the BLAS module alone (``engine.core.quickstart``) and the kernels still run: the 8-puzzle's
    hardest position takes 31 moves (Reinefeld 1993), and a compiled ``np.dot`` (BLAS) still multiplies."""
    run, = run_cli_and_report_modules(["solve", "--size", "3x3", "8 6 7 2 5 4 3 0 1", "--solver", "astar", "--json"])
    answer = json.loads(run["stdout"])
    assert (run["code"], answer["length"], answer["optimal"]) == (0, 31, True)
    assert run["loaded"] == ["numba"]
    script = ("import numpy as np\nfrom numba import njit\nfrom engine.core.quickstart import load_blas_alone\n"
              "load_blas_alone()\na = np.arange(9.0).reshape(3, 3)\n"
              "print(njit(nogil=True)(lambda x, y: np.dot(x, y))(a, a).tolist())\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=True)
    assert json.loads(done.stdout) == [[15.0, 18.0, 21.0], [42.0, 54.0, 66.0], [69.0, 90.0, 111.0]]


def test_cli_jobs_lists_every_registered_kind_without_the_web_app():
    run, = run_cli_and_report_modules(["jobs", "--json"])
    listed = json.loads(run["stdout"])
    registered = {name for name, kind in job_kinds().items() if kind.run.__module__.startswith("engine.")}
    assert set(listed) == registered and len(registered) >= 15
    assert listed["research-maxmd"]["lane"] == "long" and listed["solve"]["lane"] == "by budget"
    assert "flask" not in run["loaded"]


def compiled_kernels() -> list[tuple[str, int, ast.Call]]:
    """Every ``njit(...)`` in engine/, as a decorator or called on a function: (module, line, the call)."""
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "njit":
                found.append((module, node.lineno, node))
    return found


def test_every_kernel_releases_the_gil():
    """Jobs run kernels in a worker thread beside the thread that watches for cancel and reports progress; a kernel
    that held the GIL would freeze both until its slice ended. A bare ``@njit`` (no call) is caught as well."""
    kernels = compiled_kernels()
    assert len(kernels) > 40 and any(module == "engine.domains.rectout.turn_kernels" for module, _, _ in kernels)
    holding = [(module, line) for module, line, call in kernels
               if not any(k.arg == "nogil" and getattr(k.value, "value", None) is True for k in call.keywords)]
    assert holding == []
    bare = [(module, node.lineno) for module, path in MODULES.items() for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for decorator in node.decorator_list if getattr(decorator, "id", None) == "njit"]
    assert bare == []


def test_every_result_status_is_a_member_of_the_one_enum():
    """No ``SolveResult`` is made with a bare string as its status: the pages, the API and the tests compare them."""
    bare = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            called = getattr(node, "func", None)
            if isinstance(node, ast.Call) and getattr(called, "id", getattr(called, "attr", None)) == "SolveResult":
                given = node.args[:1] + [k.value for k in node.keywords if k.arg == "status"]
                bare += [(module, node.lineno) for value in given
                         if isinstance(value, ast.Constant) and isinstance(value.value, str)]
    assert bare == []


def test_the_core_imports_nothing_else_and_serving_only_the_core():
    """Not even inside a function: the layers under the domains know nothing of them."""
    for module in MODULES:
        names = {n for n in imports(module, top_level_only=False) if n.startswith("engine.")}
        if module.startswith(CORE):
            assert {n for n in names if not n.startswith(CORE)} == set(), module
        elif module.startswith(SERVING):
            assert {n for n in names if not n.startswith(CORE + SERVING)} == set(), module
