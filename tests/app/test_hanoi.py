"""The Towers of Hanoi, added as a new domain by ARCHITECTURE.md's checklist alone (engine/domains/hanoi/, its page
module app/static/js/step/hanoi.js and this test): held to the domain contract through the app, and to the published
fact that n discs take 2^n − 1 moves at the fewest (Lucas, 1883; e.g. Knuth, Concrete Mathematics, §1.1)."""

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.result import Budget
from engine.search.domain import domain_kind
from engine.search.solve import solve
from tests.support.domain_contract import check_domain

BAD = ({"hanoi": {"discs": 0}}, {"hanoi": {"discs": 9}}, {"hanoi": {"discs": 3.0}}, {"hanoi": {"discs": True}},
       {"hanoi": {"discs": 3, "start": [0, 0, 0]}}, {"hanoi": {"start": [0, 3]}}, {"hanoi": {"start": [0, -1]}},
       {"hanoi": {"start": [0, 1], "goal": [2]}}, {"hanoi": {"start": []}}, {"hanoi": {"discs": 2, "pegs": 4}},
       {"hanoi": {"discs": 2}, "heuristic": "manhattan"})


def test_the_towers_of_hanoi_keep_the_domain_contract_and_are_a_view_of_the_step_through(client):
    kind = domain_kind("hanoi")
    # the classic 3 discs, and a scattered start to a goal other than peg C
    check_domain(kind, [{"hanoi": {"discs": 3}}, {"hanoi": {"start": [2, 0, 1], "goal": [1, 1, 1]}},
                        {"hanoi": {"start": [0, 0], "goal": [0, 1]}, "heuristic": "zero"}], bad=BAD, client=client)
    page = client.get("/step?problem=hanoi").get_data(as_text=True)
    domains = json.loads(html.unescape(re.search(r"data-domains='([^']*)'", page).group(1)))
    assert domains["hanoi"]["module"].endswith("/js/step/hanoi.js")  # found by its name: nothing lists it


@pytest.mark.parametrize("discs", range(1, 9))
def test_every_optimal_solver_finds_the_published_2_to_the_n_minus_1_moves(discs):
    problem = domain_kind("hanoi").build({"hanoi": {"discs": discs}})
    # IDA* walks a tree that doubles with every move of depth: taken to 4 discs (15 moves)
    solvers = ["bfs", "ucs", "astar", "bidirectional", "astar-compiled"]
    for solver in solvers + (["idastar", "idastar-compiled"] if discs <= 4 else []):
        result = solve(problem, solver, Budget(max_nodes=1_000_000))
        assert result.status == "solved" and result.optimal, solver
        assert result.length == result.extra["cost"] == 2**discs - 1, solver


def test_the_command_line_solves_a_tower_and_refuses_a_bad_one():
    command = [sys.executable, "-m", "engine", "solve-problem", "--problem", "hanoi", "--solver", "astar",
               "--solver", "bfs", "--json"]
    done = subprocess.run([*command, "--data", '{"discs": 5}'], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert [(r["solver"], r["length"], r["optimal"]) for r in results] == [("astar", 31, True), ("bfs", 31, True)]
    assert results[0]["path"][0] == [0] * 5 and results[0]["path"][-1] == [2] * 5
    refused = subprocess.run([*command, "--data", '{"discs": 20}'], capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "discs must be a whole number from 1 to 8" in refused.stderr


def test_no_other_file_of_the_code_names_the_domain():
    """Nothing lists the domains: the registry, the /step page and its script find this one by convention."""
    root = Path(__file__).resolve().parents[2]
    naming = {path.relative_to(root).as_posix() for folder in ("engine", "app", "tests", "bench")
              for path in (root / folder).rglob("*") if path.suffix in {".py", ".js", ".html", ".css"}
              and "hanoi" in path.read_text(encoding="utf-8").lower()}
    assert naming == {"engine/domains/hanoi/__init__.py", "engine/domains/hanoi/compiled.py",
                      "app/static/js/step/hanoi.js", "tests/app/test_hanoi.py"}
