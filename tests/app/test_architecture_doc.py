"""ARCHITECTURE.md read as a set of claims about the code: every file, folder, test, dotted name and route it cites in
backticks exists. A map that names a module that moved, or a test that was renamed, fails here."""
import ast
import fnmatch
import importlib
import re
from pathlib import Path

from werkzeug.exceptions import MethodNotAllowed, NotFound

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "ARCHITECTURE.md"

# Where a path written without its full prefix is read from: the doc says `templates/step/` and `static/js/step/`
# inside the app, `partials/job.html` inside the templates.
PATH_BASES = ("", "app/", "app/templates/", "app/static/", "app/static/js/", "app/static/js/step/", "engine/",
              "engine/domains/", "engine/subjects/")
# A path the doc gives by its tail (`examples/romania.json`, `recorded/`) is found anywhere in these folders.
SEARCHED = ("engine", "app", "tests", "bench")
# Route prefixes the doc names as families, not as routes.
ROUTE_FAMILIES = {"/api/"}


def cited() -> list[str]:
    return sorted(set(re.findall(r"`([^`\n]+)`", DOC.read_text())))


def is_path(token: str) -> bool:
    return ("/" in token and not token.startswith("/") and re.fullmatch(r"[\w./-]+", token) is not None
            and not token.startswith("."))


def is_placeholder(token: str) -> bool:
    """The checklists' examples: `app/<subject>.py`, `subject-thing`, a glob."""
    return "<" in token or "*" in token or "subject-thing" in token


def is_test_reference(token: str) -> bool:
    return "::" in token and token.split("::")[0].endswith(".py")


def dotted_name(token: str) -> str | None:
    if token.startswith("app.extensions"):  # the Flask app object's attribute, not the package
        return None
    name = token.lstrip("@").split("(")[0].split("[")[0]
    if re.fullmatch(r"(engine|app)(\.\w+)+", name):
        return name
    return None


def route(token: str) -> tuple[str | None, str] | None:
    """(the method the doc names, or None, and the path with its variables filled in)."""
    method, _, path = token.partition(" ") if token.startswith(("GET ", "POST ")) else ("", "", token)
    path = path.split(" ")[0].split("?")[0]
    if not path.startswith("/") or path in ROUTE_FAMILIES or not re.fullmatch(r"[\w/<>.-]*", path):
        return None
    return method or None, re.sub(r"<[^>]+>", "x", path)


def resolve_path(token: str) -> Path | None:
    for base in PATH_BASES:
        candidate = ROOT / base / token
        if candidate.exists():
            return candidate
    for folder in SEARCHED:
        for candidate in (ROOT / folder).rglob(token.rstrip("/")):
            if candidate.is_dir() or not token.endswith("/"):
                return candidate
    return None


def resolves(token: str) -> bool:
    """A path, or a module's path with one of its names after a dot (`kernel_drivers.idastar`)."""
    if resolve_path(token) is not None:
        return True
    module, _, name = token.rpartition(".")
    path = resolve_path(module + ".py") if module and "/" in module else None
    return path is not None and defines(path, name)


def resolve_dotted(name: str):
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise ModuleNotFoundError(name)


def defines(path: Path, qualified: str) -> bool:
    """Whether the file defines the name (`Class::method`; a trailing `*` stands for any ending)."""
    tree = ast.parse(path.read_text())
    scope = tree.body
    for name in qualified.split("::"):
        found = [node for node in scope if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and fnmatch.fnmatchcase(node.name, name)]
        if not found:
            return False
        scope = found[0].body
    return True


def test_the_doc_cites_enough_to_be_worth_checking():
    tokens = cited()
    assert sum(map(is_path, tokens)) > 50
    assert sum(dotted_name(token) is not None for token in tokens) > 20
    assert sum(map(is_test_reference, tokens)) > 5


def test_every_cited_file_and_folder_exists():
    missing = [token for token in cited() if is_path(token) and not is_placeholder(token)
               and not is_test_reference(token) and not resolves(token)]
    assert missing == []


def test_every_cited_test_exists():
    missing = []
    for token in filter(is_test_reference, cited()):
        file, _, qualified = token.partition("::")
        path = resolve_path(file)
        if path is None or not defines(path, qualified.split("[")[0]):
            missing.append(token)
    assert missing == []


def test_every_cited_dotted_name_resolves():
    missing = []
    for name in filter(None, map(dotted_name, cited())):
        try:
            resolve_dotted(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == []


def test_every_cited_route_exists(app):
    url_adapter = app.url_map.bind("localhost")
    missing = []
    for token in cited():
        found = route(token)
        if found is None:
            continue
        method, path = found
        try:
            url_adapter.match(path, method=method or "GET")
        except MethodNotAllowed:
            if method:
                missing.append(token)
        except NotFound:
            missing.append(token)
    assert missing == []
