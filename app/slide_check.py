"""The check of an own lesson's words: what each number names, and whether the board says the same at the slide's step.

A small binder, not a parser: the words are cut into the tokens it knows (the problem's node names, the searches'
names, quantity words, numbers, arithmetic, and the breaks between clauses and sentences); every other word is
skipped. A number is bound, in this order, to

1. the unit right after it, when that unit says what it counts: "5 expansions", "20 cities", "23 roads", "8 moves";
2. the quantity right before it (place names and "=" between them skipped): "expanded only 4", "Zerind's f is 449",
   "f = 393", "h(Sibiu) = 253", "the path costs 418", "the road from Arad to Sibiu is 140.5";
3. a unit right after it that could count several things: "6 nodes" (the problem's nodes, or a search's expanded,
   generated or frontier nodes), "3 edges" (the problem's edges, or the edges of the path found);
4. a node quantity said earlier in the sentence, when its clause names a node: "Timisoara at 447 and Zerind at 449"
   after "Sibiu at f = 393", or "Sibiu's f is 140 + 253 = 390" (the sum's result is what is claimed, its terms are not);
   a road's cost, when it names two: "the road from Arad to Sibiu is 140, Arad to Zerind 75".

A clause that names no node but says "it", "its" or "whose" is about the node named before it in that sentence or
the one before, when exactly one is: "Sibiu comes off the frontier first; its f is 393". With two or more named
there ("Sibiu before Zerind; its f is 393") the pronoun is left unread, and so is a number that needs it.

A bound number is right when it is that quantity's value at the step (for the search named before it in the sentence,
else for any search on the slide): a node's g, h, f, cost or depth where the node is reached, h also from the
problem's own table; a search's expanded, generated and frontier counts; the path's length and cost once it is found;
the problem's node and edge counts, a road's cost, a numbered start or goal. A number bound to nothing is only checked
to be shown somewhere at the step (``app.lessons.shown_figures``), and its reading says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.lessons import NAMED, NUMBER, matches, shown_figures, stated_numbers
from engine.search.questions import figure

#: Quantity words, as a lecturer writes them; each is one of the kinds below.
QUANTITIES = {
    "f": r"f(?:[- ]values?)?", "g": r"g(?:[- ]values?)?", "h": r"h(?:[- ]values?)?|heuristic|straight[- ]line"
    r"(?: distances?)?|estimates?", "cost": r"costs?|costing|cheapest", "depth": r"depth|deep",
    "expanded": r"expand(?:s|ed|ing)?|expansions?", "generated": r"generat(?:e|es|ed|ing)|generations?",
    "frontier": r"frontier|queue|open list", "length": r"lengths?|moves?",
    "nodes": r"nodes|states", "cities": r"cities|towns", "edges": r"edges?|arcs?", "roads": r"roads?",
    "start": r"start", "goal": r"goal",
}
NODE_QUANTITIES = ("f", "g", "h", "cost", "depth")  # a value of one node (cost alone, without a node: the path's)
UNIT_GAP = {"more", "fewer", "new", "other", "further", "extra"}  # between a number and its unit: "4 more nodes"
QUANTITY_GAP = 3  # words between a quantity and its number: "f is 449", "expanded only 4", "frontier still holds 6"
#: Units that, right after a number, say what it counts; "nodes" and "edges" could count several things.
SPECIFIC_UNITS = ("expanded", "generated", "cities", "roads", "length")
AMBIGUOUS_UNITS = ("nodes", "edges")
WORDS = {"f": "f", "g": "g", "h": "h", "cost": "cost", "depth": "depth", "expanded": "nodes expanded",
         "generated": "nodes generated", "frontier": "nodes on the frontier", "length": "path's length",
         "start": "start", "goal": "goal"}
#: Other names a lecturer gives the searches (beside each trace's own title, e.g. "A*", "Uniform-cost search").
ALIASES = {"bfs": ("BFS", "breadth-first"), "dfs": ("DFS", "depth-first"), "ids": ("IDS", "iterative deepening"),
           "ucs": ("UCS", "uniform-cost", "uniform cost", "Dijkstra"), "greedy": ("greedy",),
           "astar": ("A star",), "idastar": ("IDA star",), "bidirectional": ("bidirectional",)}
OPERATORS = r"[+×*/=]|(?<=\s)[-−](?=\s)"
SENTENCE = r"[.;!?](?!\d)"
CLAUSE = r"[,:]|\b(?:and|but|while|whereas|then)\b"
PRONOUN = r"(?<!\w)(?:its|it|whose)(?!\w)"


@dataclass(frozen=True)
class Reading:
    """One number of the words: what it was read as naming, and the verdict."""
    written: str
    names: str  # "f of Zerind", "A*'s nodes expanded", ... ; "" when bound to nothing
    right: bool
    expected: str = ""  # what the board has for it at the step, as the board writes it (when it is not right)

    def to_dict(self) -> dict:
        return {"written": self.written, "names": self.names, "right": self.right, "expected": self.expected}


@dataclass
class Search:
    """One recorded search at the slide's step: its names, counts, and the nodes it has reached by name."""
    title: str
    names: tuple[str, ...]
    counts: dict
    done: dict | None  # the result once the step is the search's end and it found a path
    reached: dict  # node name -> the trace's nodes of that state reached by this step


def _search(trace: dict, step: int) -> Search:
    counts: dict = {}
    reached = {0} if trace["nodes"] else set()
    for event in trace["steps"][:step]:
        counts.update((k, event[k]) for k in ("expanded", "generated", "frontier") if k in event)
        if isinstance(event.get("node"), int):
            reached.add(event["node"])
    result = trace["result"]
    at_end = step >= len(trace["steps"])
    if at_end:
        counts.update(expanded=result["nodes_expanded"], generated=result["nodes_generated"])
    by_name: dict = {}
    for node_id in sorted(reached):
        node = trace["nodes"][node_id]
        by_name.setdefault(str(node["state"]), []).append(node)
    title = trace["title"]
    names = (title, title.split(" (")[0], title.removesuffix(" search"), *ALIASES.get(trace["algorithm"], ()))
    return Search(title, tuple(dict.fromkeys(names)), counts, result if at_end and result["status"] == "solved" else
                  None, by_name)


class Board:
    """What the slide's step-through holds at its step: the searches and the problem's own facts."""

    def __init__(self, traces: list[dict], step: int):
        self.step = step
        self.searches = [_search(trace, step) for trace in traces]
        scene = traces[0].get("scene") or {}
        graph = scene["graph"] if isinstance(scene.get("graph"), dict) else {}
        self.places = [str(n["name"]) for n in graph.get("nodes", ()) if isinstance(n.get("name"), str)]
        self.h = {str(k): v for k, v in (scene.get("h") or {}).items() if isinstance(v, int | float)}
        self.counts = {"nodes": len(graph["nodes"]), "edges": len(graph["edges"])} if graph.get("nodes") else {}
        self.roads = {frozenset((str(e["from"]), str(e["to"]))): e["cost"] for e in graph.get("edges", ())}
        self.ends = {k: graph[k] for k in ("start", "goal") if isinstance(graph.get(k), int)}
        self.shown = shown_figures(traces, step)
        # every alias, of searches not on the slide too: "uniform-cost" is a search's name, never a cost
        search_names = sorted({n for s in self.searches for n in s.names} | {n for a in ALIASES.values() for n in a},
                              key=len, reverse=True)
        place_names = sorted(self.places, key=len, reverse=True)
        alternatives = [
            ("search", "|".join(rf"(?<![\w*]){re.escape(n)}(?![\w*])" for n in search_names)),
            # names as written, case and all: a node named G is not the g of "g = 5"
            ("place", "|".join(rf"(?-i:(?<!\w){re.escape(n)}(?!\w))" for n in place_names)),
            ("number", NUMBER.pattern), ("pronoun", PRONOUN),
            *((f"q_{kind}", rf"(?<!\w)(?:{words})(?!\w)") for kind, words in QUANTITIES.items()),
            ("op", OPERATORS), ("sentence", SENTENCE), ("clause", CLAUSE)]
        self.tokens = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in alternatives if pattern),
                                 re.IGNORECASE)

    def tokenize(self, text: str) -> list[Token]:
        found, last = [], 0
        text = NAMED.sub(" ", text)
        for match in self.tokens.finditer(text):
            kind = match.lastgroup if match.lastgroup in ("search", "place", "number", "pronoun", "op", "sentence",
                                                          "clause") else "quantity"
            value = match.group(0) if kind != "quantity" else str(match.lastgroup).removeprefix("q_")
            found.append(Token(kind, value, tuple(re.findall(r"\w+", text[last:match.start()].lower()))))
            last = match.end()
        return found


@dataclass(frozen=True)
class Token:
    kind: str
    value: str
    skipped: tuple[str, ...]  # the words between it and the token before it, which the binder does not know


def read_words(text: str, traces: list[dict], step: int) -> list[Reading]:
    """Every number the words state, read as what it names and checked against the board at ``step``."""
    board = Board(traces, step)
    tokens = board.tokenize(text)
    readings = []
    for at, token in enumerate(tokens):
        if token.kind != "number":
            continue
        written = token.value
        _, value, decimals = stated_numbers(written)[0]
        bound = _bind(tokens, at, board)
        if bound is None:
            right = any(matches(value, decimals, shown) for shown in board.shown)
            readings.append(Reading(written, "", right, "" if right else "not on the board"))
            continue
        names, candidates, why_none = bound
        right = any(matches(value, decimals, c) for c in candidates)
        expected = " or ".join(dict.fromkeys(figure(c) for c in candidates)) if candidates else why_none
        readings.append(Reading(written, names, right, "" if right else expected))
    return readings


def _bind(tokens: list[Token], at: int, board: Board):
    """(what the number names, the values it may be, why there are none) or None when it is bound to nothing."""
    nothing = Token("", "", ())
    before, after = tokens[at - 1] if at else nothing, tokens[at + 1] if at + 1 < len(tokens) else nothing
    if before.kind == "op" and before.value != "=" or after.kind == "op" and after.value != "=":
        return None  # a term of a sum: what is claimed is the sum's result
    sentence_start = max([i + 1 for i in range(at) if tokens[i].kind == "sentence"], default=0)
    clause_start = max([i + 1 for i in range(sentence_start, at) if tokens[i].kind == "clause"],
                       default=sentence_start)
    clause_end = next((i for i in range(at, len(tokens)) if tokens[i].kind in ("sentence", "clause")), len(tokens))
    places = [t.value for t in tokens[clause_start:clause_end] if t.kind == "place"]
    if not places and any(t.kind == "pronoun" for t in tokens[clause_start:clause_end]):
        places = _antecedent(tokens, sentence_start, clause_start)
    named = [t.value.lower() for t in tokens[sentence_start:at] if t.kind == "search"]
    searches = [s for s in board.searches if named[-1] in (n.lower() for n in s.names)] if named else []
    searches = searches or board.searches

    unit = after.value if after.kind == "quantity" and set(after.skipped) <= UNIT_GAP else None
    quantity = None
    if unit in SPECIFIC_UNITS:
        quantity = unit
    else:
        back, skipped = at - 1, len(tokens[at].skipped)
        while back >= clause_start and (tokens[back].kind in ("place", "pronoun") or tokens[back].value == "="):
            skipped += len(tokens[back].skipped)
            back -= 1
        if back >= clause_start and tokens[back].kind == "quantity" and skipped <= QUANTITY_GAP:
            quantity = tokens[back].value
            per_move = back > clause_start and tokens[back - 1].value in ("length", "edges", "roads")
            if quantity == "cost" and per_move and not places:
                return None  # "every move costing 1": the cost of any one move, not a figure of this board
        elif unit in AMBIGUOUS_UNITS:
            quantity = unit
        elif places:
            carried = NODE_QUANTITIES + (("roads", "edges") if len(places) >= 2 else ())
            earlier = [t.value for t in tokens[sentence_start:at] if t.kind == "quantity" and t.value in carried]
            quantity = earlier[-1] if earlier else None
    if quantity is None or quantity in NODE_QUANTITIES and quantity != "cost" and not places:
        return None  # "at depth 2", "f = 8" with no node named: said of no one thing on the board
    return _values(quantity, places, searches, board)


def _antecedent(tokens: list[Token], sentence_start: int, clause_start: int) -> list[str]:
    """The node a pronoun in the clause starting at ``clause_start`` stands for: the one node named in this sentence
    before it or in the sentence before, or none when none or several are."""
    before = max([i + 1 for i in range(max(0, sentence_start - 1)) if tokens[i].kind == "sentence"], default=0)
    named = {t.value for t in tokens[before:clause_start] if t.kind == "place"}
    return list(named) if len(named) == 1 else []


def _owner(searches: list[Search], board: Board) -> str:
    return f"{searches[0].title}'s " if len(searches) == 1 and len(board.searches) > 1 else ""


def _values(quantity: str, places: list[str], searches: list[Search], board: Board):
    step = board.step
    if quantity in ("roads", "edges") and len(places) >= 2:
        road = frozenset(places[-2:])
        cost = board.roads.get(road)
        return (f"the cost of the road {places[-2]}–{places[-1]}", [] if cost is None else [cost],
                f"there is no road {places[-2]}–{places[-1]}")
    if quantity in NODE_QUANTITIES and places:
        place = places[-1]
        nodes = [n for s in searches for n in s.reached.get(place, ())]
        key = "g" if quantity == "cost" else quantity
        values = [n["g"] + n["h"] if key == "f" else n[key] for n in nodes
                  if key == "g" or key == "depth" or n["h"] is not None]
        if key == "h" and place in board.h:
            values.append(board.h[place])  # the problem's own table: known before the node is reached
        names = f"{WORDS[quantity]} of {place}" if quantity != "cost" else f"the cost of the path to {place}"
        return names, values, f"{place} is not reached at step {step}"
    if quantity in ("cost", "length"):
        found = [s.done[quantity] for s in searches if s.done]
        return (f"{_owner(searches, board) or 'the '}path's {quantity}", found, f"no path is found yet at step {step}")
    if quantity in ("expanded", "generated", "frontier"):
        values = [s.counts[quantity] for s in searches if quantity in s.counts]
        return (f"{_owner(searches, board)}{WORDS[quantity]}", values or [0], "")
    if quantity in ("start", "goal"):
        return (f"the {quantity}", [board.ends[quantity]], "") if quantity in board.ends else None
    if quantity in ("cities", "roads"):
        kind = "nodes" if quantity == "cities" else "edges"
        return (f"the problem's {quantity}", [board.counts[kind]], "") if kind in board.counts else None
    # "nodes" or "edges" alone: the problem's, or a search's
    if quantity == "nodes":
        values = [board.counts["nodes"]] if "nodes" in board.counts else []
        values += [s.counts[k] for s in searches for k in ("expanded", "generated", "frontier") if k in s.counts]
        return "nodes (the problem's, or expanded, generated or on the frontier)", values or [0], ""
    values = [board.counts["edges"]] if "edges" in board.counts else []
    values += [s.done["length"] for s in searches if s.done]
    return ("edges (the problem's, or of the path found)", values, "") if values else None
