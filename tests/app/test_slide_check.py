"""The check of an own lesson's words reads what each number names (app/slide_check.py), against AIMA's Romania
(Russell & Norvig, Figures 3.1, 3.16 and 3.24): A* from Arad to Bucharest with the straight-line distances expands
Arad, Sibiu, Rimnicu Vilcea, Fagaras and Pitesti, then pops Bucharest, by a path of cost 418; after Arad's expansion
its frontier holds Sibiu at 140 + 253 = 393, Timisoara at 118 + 329 = 447 and Zerind at 75 + 374 = 449."""

import pytest

from app.slide_check import read_words
from app.step_search import step_traces
from engine.domains.graph import example

AFTER_ARAD = 4  # A* expands Arad and generates its three children
END = 1_000_000


@pytest.fixture(scope="module")
def romania():
    _, _, traces = step_traces({"problem": "graph", "graph": example("romania"), "algorithms": ["ucs", "astar"],
                                "heuristic": "given"})
    return traces


def read(words, traces, step):
    return [(r.written, r.names, r.right, r.expected) for r in read_words(words, traces, min(
        step, max(len(t["steps"]) for t in traces)))]


@pytest.mark.parametrize(("words", "step", "readings"), [
    ("Zerind's f is 449.", AFTER_ARAD, [("449", "f of Zerind", True, "")]),
    ("Timisoara's f is 449 and Zerind's 447.", AFTER_ARAD,
     [("449", "f of Timisoara", False, "447"), ("447", "f of Zerind", False, "449")]),
    ("h(Sibiu) = 253, so f(Sibiu) = 140 + 253 = 393.", AFTER_ARAD,
     [("253", "h of Sibiu", True, ""), ("140", "", True, ""), ("253", "", True, ""), ("393", "f of Sibiu", True, "")]),
    ("Sibiu's f is 140 + 253 = 390.", AFTER_ARAD,
     [("140", "", True, ""), ("253", "", True, ""), ("390", "f of Sibiu", False, "393")]),
    ("Bucharest has h = 0; Bucharest's f is 418.", AFTER_ARAD,  # h is the problem's own; f needs the node reached
     [("0", "h of Bucharest", True, ""), ("418", "f of Bucharest", False, "Bucharest is not reached at step 4")]),
    ("A* expanded 5 nodes and the path costs 418.", END,
     [("5", "A*'s nodes expanded", True, ""), ("418", "A*'s path's cost", True, "")]),
    ("A* expanded only 4 nodes.", END, [("4", "A*'s nodes expanded", False, "5")]),
    ("The map has 20 cities and 23 roads.", 0,
     [("20", "the problem's cities", True, ""), ("23", "the problem's roads", True, "")]),
    ("The road from Arad to Sibiu is 140 long, Arad to Zerind 76.", 0,
     [("140", "the cost of the road Arad–Sibiu", True, ""), ("76", "the cost of the road Arad–Zerind", False, "75")]),
    ("The road from Arad to Bucharest is 418.", 0,
     [("418", "the cost of the road Arad–Bucharest", False, "there is no road Arad–Bucharest")]),
    # a cost per road is no figure of this board: bound to nothing, it is only looked for among the numbers shown
    ("With every road costing 1 uniform-cost search would be breadth-first search.", 0,
     [("1", "", False, "not on the board")]),
    ("Bucharest is 418 from Arad.", END, [("418", "", True, "")]),
    # a pronoun stands for the one node named before it, in its sentence or the one before
    ("Sibiu comes off the frontier first; its f is 393.", AFTER_ARAD, [("393", "f of Sibiu", True, "")]),
    ("Zerind is on the frontier too. Its f is 447.", AFTER_ARAD, [("447", "f of Zerind", False, "449")]),
    ("Timisoara, whose g is 118, waits.", AFTER_ARAD, [("118", "g of Timisoara", True, "")]),
    # two nodes named before it: which one is meant is not guessed, and the number is only looked for on the board
    ("Sibiu is taken before Zerind; its f is 449.", AFTER_ARAD, [("449", "", True, "")]),
])
def test_a_number_is_checked_against_what_it_names(romania, words, step, readings):
    assert read(words, romania, step) == readings


def test_a_search_named_in_the_sentence_is_the_one_checked(romania):
    # uniform-cost search on Romania expands more than A* (it has no h): its count is not A*'s
    ucs = read("Uniform-cost search expanded 5 nodes.", romania, END)[0]
    astar = read("A* expanded 5 nodes.", romania, END)[0]
    assert ucs[:3] == ("5", "Uniform-cost search's nodes expanded", False) and int(ucs[3]) > 5
    assert astar == ("5", "A*'s nodes expanded", True, "")


def test_a_node_named_as_a_quantity_is_told_apart_by_its_capital():
    graph = {"nodes": [{"name": "S", "h": 2}, {"name": "G", "h": 0}], "edges": [{"from": "S", "to": "G", "cost": 3}],
             "start": "S", "goal": "G"}
    _, _, traces = step_traces({"problem": "graph", "graph": graph, "algorithms": ["astar"], "heuristic": "given"})
    end = len(traces[0]["steps"])
    assert read("G's g is 3 and its f is 3; S has h = 2.", traces, end) == [
        ("3", "g of G", True, ""), ("3", "f of G", True, ""), ("2", "h of S", True, "")]
