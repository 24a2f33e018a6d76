"""One reader for the numbers, flags and choices that arrive in requests and job parameters.

Values come from JSON bodies (numbers, strings, anything), HTML forms and query strings (always strings). Each reader
takes the container, the field's name and its allowed range, and either returns a clean Python value or raises
``PuzzleError`` with a message that names the field and what it accepts. It refuses what ``int()`` and ``float()``
would let through and then break later: NaN, infinities, integers too large for a float, booleans posing as numbers,
lists and objects, and digits outside ASCII (``str.isdigit()`` accepts "¹", ``int()`` does not).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.errors import PuzzleError
from engine.core.result import Budget

_MISSING = object()
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")  # ASCII only; 18 digits cannot overflow an int64
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,18}(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


def _raw(data: Mapping, name: str, default: Any) -> Any:
    value = data.get(name, _MISSING) if isinstance(data, Mapping) else _MISSING
    if value is _MISSING or value is None or (isinstance(value, str) and value.strip() == ""):
        if default is _MISSING:
            raise PuzzleError(f"{name} is missing")
        return default
    return value


def _range_text(low: float, high: float) -> str:
    return f"from {low:,} to {high:,}"


def integer(data: Mapping, name: str, low: int, high: int, default: Any = _MISSING) -> int:
    """A whole number in [low, high]; a float with no fraction (``3.0``) is accepted, ``3.5`` is not."""
    value = _raw(data, name, default)
    if value is default and default is not _MISSING:
        return value
    message = f"{name} must be a whole number {_range_text(low, high)}"
    if isinstance(value, bool):
        raise PuzzleError(message)
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise PuzzleError(message)
        value = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if not _INTEGER.fullmatch(text):
            raise PuzzleError(message)
        value = int(text)
    elif not isinstance(value, int):
        raise PuzzleError(message)
    if not low <= value <= high:
        raise PuzzleError(f"{message} (got {value:,})" if abs(value) < 10**15 else message)
    return value


def number(data: Mapping, name: str, low: float, high: float, default: Any = _MISSING) -> float:
    """A finite number in [low, high]."""
    value = _raw(data, name, default)
    if value is default and default is not _MISSING:
        return value
    message = f"{name} must be a number {_range_text(low, high)}"
    if isinstance(value, bool):
        raise PuzzleError(message)
    if isinstance(value, str):
        text = value.strip()
        if not _DECIMAL.fullmatch(text):
            raise PuzzleError(message)
        value = float(text)
    elif isinstance(value, int):
        value = float(value) if abs(value) < 2**63 else math.inf
    elif not isinstance(value, float):
        raise PuzzleError(message)
    if not math.isfinite(value) or not low <= value <= high:
        raise PuzzleError(message)
    return value


def numbers(value: Any, name: str, count: int, low: float, high: float) -> tuple[float, ...]:
    """Exactly ``count`` finite numbers in [low, high]: a JSON list, or text separated by commas or spaces (a query
    string). Each is read as ``number`` reads one, so NaN, infinities and booleans are refused here too."""
    items = value.replace(",", " ").split() if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or len(items) != count:
        raise PuzzleError(f"{name} must be {count} numbers {_range_text(low, high)}")
    return tuple(number({name: item}, name, low, high) for item in items)


def flag(data: Mapping, name: str, default: bool) -> bool:
    """A yes/no field: JSON true/false, or a form value (an unchecked checkbox sends nothing, so absent = default).

    One meaning everywhere: 1, true, yes, on are true; 0, false, no, off and the empty string are false.
    """
    value = data.get(name, _MISSING) if isinstance(data, Mapping) else _MISSING
    if value is _MISSING or value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise PuzzleError(f"{name} must be true or false")


def choice(data: Mapping, name: str, options: Iterable[str], default: Any = _MISSING) -> str:
    """One of ``options`` (exact, case-sensitive names as the API documents them)."""
    options = tuple(options)
    value = _raw(data, name, default)
    if isinstance(value, str) and value in options:
        return value
    if value is default and default is not _MISSING:
        return value
    shown = value if isinstance(value, str) and len(value) <= 40 else type(value).__name__
    raise PuzzleError(f"{name} must be one of {', '.join(options)} (got {shown!r})")


def text(data: Mapping, name: str, max_length: int = 200, default: Any = _MISSING) -> str:
    """A string of at most ``max_length`` characters (numbers are accepted as their decimal text)."""
    value = _raw(data, name, default)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise PuzzleError(f"{name} must be text")
    if len(value) > max_length:
        raise PuzzleError(f"{name} is too long (at most {max_length} characters)")
    return value


def depth(value: Any, limit: int) -> int:
    """How deeply lists and objects nest in ``value``, counted without recursion (a request may nest thousands)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


#: How deeply a request's JSON may nest: the deepest one we take nests four levels (a state's poses, a lesson's
#: slides); 16 leaves room, and stays far below the depth at which Python's parser (or anything walking the value
#: after it) runs out of stack.
MAX_JSON_DEPTH = 16
#: A JSON string (to its end, if it has none: so every match succeeds and the scan stays linear) or a bracket.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]')


def json_value(text: str | bytes, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``text`` parsed as JSON, for every body, query field, form field and upload that holds JSON; anything it
    cannot take is a PuzzleError naming ``what``: not JSON (with where), not UTF-8, nesting deeper than
    ``max_depth`` (counted before parsing, so that no parser or walker recurses into ``[[[[…``), NaN or the
    infinities (Python's parser takes them; JSON has none), numbers too large for a float or for ``int()``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise PuzzleError(f"{what} is not JSON: it is not UTF-8 text") from None
    if nesting(text) > max_depth:
        raise PuzzleError(f"{what} nests too deeply (at most {max_depth} levels of [ and {{)")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except PuzzleError as error:
        raise PuzzleError(f"{what}: {error}") from None
    except RecursionError:
        raise PuzzleError(f"{what} nests too deeply") from None
    except json.JSONDecodeError as error:
        raise PuzzleError(f"{what} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
                          ) from None
    except ValueError:  # an integer past int()'s digit limit
        raise PuzzleError(f"{what} holds a number too long to read") from None


def nesting(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in JSON text (outside its strings), counted without parsing it."""
    deepest = level = 0
    for token in _JSON_TOKENS.finditer(text):
        first = token.group()[0]
        if first in "[{":
            level += 1
            deepest = max(deepest, level)
        elif first in "]}":
            level -= 1
    return deepest


def _refuse_constant(name: str):
    raise PuzzleError(f"{name} is not a number JSON has: send finite numbers")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise PuzzleError(f"{text[:20]} is too large: send finite numbers")
    return value


#: Budgets a request may ask for at most (the web API and jobs); the CLI may go further.
MAX_REQUEST_NODES = 20_000_000_000
MAX_REQUEST_SECONDS = 900.0
#: The memory a request's search may hold in its tables at most (``max_megabytes``; the default is the search's own,
#: ``engine.core.result.default_max_bytes``): under the job's memory limit (``engine.serving.cluster.Limits.memory``).
MAX_REQUEST_MEGABYTES = 2048


def budget_from(params: Mapping, default: Budget | None = None, max_seconds: float = MAX_REQUEST_SECONDS) -> Budget:
    """A request's budget (``max_nodes``, ``max_seconds``, ``max_megabytes``), each within what a request may ask."""
    default = default or Budget()
    megabytes = integer(params, "max_megabytes", 1, MAX_REQUEST_MEGABYTES,
                        min(default.max_bytes // 2**20, MAX_REQUEST_MEGABYTES))
    return Budget(integer(params, "max_nodes", 1, MAX_REQUEST_NODES, min(default.max_nodes, MAX_REQUEST_NODES)),
                  number(params, "max_seconds", 0.001, max_seconds, min(default.max_seconds, max_seconds)),
                  megabytes * 2**20)


def budget_params(params: Mapping, budget: Budget) -> dict:
    """The budget as a job's parameters (the memory only when the request named it)."""
    chosen = {"max_nodes": budget.max_nodes, "max_seconds": budget.max_seconds}
    if "max_megabytes" in params:
        chosen["max_megabytes"] = budget.max_bytes // 2**20
    return chosen
