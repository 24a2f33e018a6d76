import json

from engine.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_json_has_the_contract_fields(capsys):
    code, out, _ = run(capsys, "solve", "--size", "3x3", "--goal", "blank-last", "8 6 7 2 5 4 3 0 1",
                       "--solver", "idastar", "--heuristic", "manhattan", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["length"] == 31 and len(data["moves"]) == 31 and set(data["moves"]) <= set("UDLR")
    assert data["status"] == "solved" and data["optimal"] is True
    for key in ("nodes_expanded", "nodes_generated", "peak_frontier", "seconds", "load_seconds"):
        assert key in data


def test_solve_text_and_goal_as_tiles(capsys):
    code, out, _ = run(capsys, "solve", "--goal", "1 2 3/4 5 6/7 8 0", "1 2 3/4 5 6/7 0 8", "--solver", "bfs")
    assert code == 0 and "moves:     R" in out and "length:    1" in out


def test_scramble_and_random_are_reproducible(capsys):
    first = run(capsys, "scramble", "--size", "4x4", "--moves", "12", "--seed", "4", "--json")[1]
    assert first == run(capsys, "scramble", "--size", "4x4", "--moves", "12", "--seed", "4", "--json")[1]
    assert len(json.loads(first)["scramble"]) == 12
    assert json.loads(run(capsys, "random", "--size", "2x5", "--seed", "1", "--json")[1])["tiles"]


def test_check_explains(capsys):
    code, out, _ = run(capsys, "check", "1 2 3/4 5 6/8 7 0")
    assert code == 0 and out.startswith("unsolvable") and "odd" in out


def test_bad_input_exits_2_with_a_message(capsys):
    code, _, err = run(capsys, "solve", "1 2 3/4 5 6/7 7 0")
    assert code == 2 and "tile 7 appears twice" in err
    code, _, err = run(capsys, "solve", "--size", "9x9", "1")
    assert code == 2 and "at most 36" in err


def test_research_commands_reproduce_seed_000(capsys):
    code, out, _ = run(capsys, "research", "bfs", "--size", "2x4", "--json")
    assert code == 0 and json.loads(out)["diameter"] == 36
    code, out, _ = run(capsys, "research", "maxmd", "--n", "8")
    assert code == 0 and "position 75" in out
    code, out, _ = run(capsys, "research", "subproblem", "--n", "6", "--k", "1", "--json")
    assert json.loads(out)["f"] == 45  # Table 3
    code, out, _ = run(capsys, "research", "bounds", "--n-max", "5")
    assert code == 0 and "the paper prints upper bound 58" in out


def test_research_refuses_what_does_not_fit(capsys):
    code, _, err = run(capsys, "research", "bfs", "--size", "4x4")
    assert code == 2 and "at most 14 cells" in err
    code, _, err = run(capsys, "research", "maxmd", "--n", "7", "--brute")
    assert code == 2 and "n from 1 to 6" in err


def test_fast_solver_and_tables_list(capsys, tmp_path, monkeypatch):
    from engine.serving import store

    code, out, _ = run(capsys, "solve", "--size", "5x5", "--solver", "fast", "--json",
                       "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 0 23 24")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved" and data["extra"]["lower_bound"] <= data["length"]
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    code, out, _ = run(capsys, "tables", "list", "--json")
    rows = json.loads(out)["tables"]
    assert code == 0 and [r["name"] for r in rows][:2] == ["pdb-663/blank-first", "pdb-663/blank-last"]
    assert not any(r["built"] for r in rows)


def test_tables_build_builds_the_15_puzzle_tables_unless_asked_for_all(capsys, tmp_path, monkeypatch):
    """Which names each form of ``tables build`` asks the catalogue for (the builds themselves are tested in
    tests/engine/domains/tiles/test_pdb.py and by the session's 7-8 build)."""
    from engine.domains.tiles import pdb_catalogue
    from engine.serving import store

    monkeypatch.setattr(store, "_data_dir", tmp_path)
    asked = []
    monkeypatch.setattr(pdb_catalogue, "build", lambda names, progress: asked.append(names))
    for argv in (["tables", "build"], ["tables", "build", "--all"],
                 ["tables", "build", "--only", "pdb-6666/blank-last"]):
        assert run(capsys, *argv)[0] == 0
    assert asked[0] == ["pdb-663/blank-first", "pdb-663/blank-last", "pdb-78/blank-first", "pdb-78/blank-last"]
    assert asked[1] is None and asked[2] == ["pdb-6666/blank-last"]
    code, out, err = run(capsys, "tables", "build", "--json")
    assert "building 4 table(s): pdb-663/blank-first" in err
    assert [row["name"] for row in json.loads(out)["tables"]] == asked[0]


def test_pdb_without_tables_keeps_the_json_contract_and_says_what_it_used(capsys, tmp_path, monkeypatch):
    from engine.domains.tiles import pdb
    from engine.serving import store

    monkeypatch.setattr(store, "_data_dir", tmp_path)
    monkeypatch.setattr(pdb, "_loaded", {})
    code, out, _ = run(capsys, "solve", "--size", "4x4", "--goal", "blank-first",
                       "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15", "--solver", "idastar", "--heuristic", "pdb", "--json")
    data = json.loads(out)
    assert code == 0 and data["length"] == 3 and data["optimal"] is True
    assert {"moves", "length", "optimal", "nodes_expanded", "seconds"} <= set(data)
    assert data["heuristic"] == "linear-conflict" and "tables build" in data["message"]


def test_loading_is_reported_apart_from_the_search(capsys, monkeypatch):
    from types import SimpleNamespace

    from engine.domains.tiles import Board, goal_board
    from engine.domains.tiles import solving as solvers
    from engine.search import domain_solve

    monkeypatch.setattr(solvers, "_loaded", set())  # as in a fresh process: this solve loads its kernels first
    # the loading's clock reads 10.0 then 12.5, and nothing more: one load, timed at 2.5 s, whatever the machine
    monkeypatch.setattr(domain_solve, "time", SimpleNamespace(perf_counter=iter([10.0, 12.5]).__next__))
    first = json.loads(run(capsys, "solve", "8 6 7 2 5 4 3 0 1", "--solver", "astar", "--json")[1])
    again = json.loads(run(capsys, "solve", "8 6 7 2 5 4 3 0 1", "--solver", "astar", "--json")[1])
    assert first["load_seconds"] == 2.5 and again["load_seconds"] == 0
    # seed 004's position is one of the two 31 moves from the goal; the loading's own little solve, counted in, would
    # make the first solve's count larger than the second's
    for answer in (first, again):
        assert answer["length"] == 31 and Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)).apply(answer["moves"]) == \
            goal_board(3, 3, "blank-last")
    assert first["nodes_expanded"] == again["nodes_expanded"] > 0
    monkeypatch.setattr(solvers, "_loaded", set())  # the text says the same of a loading solve
    monkeypatch.setattr(domain_solve, "time", SimpleNamespace(perf_counter=iter([20.0, 21.25]).__next__))
    assert "searching, 1.2500 loading kernels before" in run(capsys, "solve", "8 6 7 2 5 4 3 0 1")[1]


def test_a_solve_loads_only_the_kernels_it_runs():
    import subprocess
    import sys

    script = (
        "import gc\n"
        "from numba.core.registry import CPUDispatcher\n"
        "from engine.cli import main\n"
        "main(['solve', '8 6 7 2 5 4 3 0 1', '--json'])\n"
        "print(sorted(d.py_func.__qualname__ for d in gc.get_objects()"
        " if isinstance(d, CPUDispatcher) and d.overloads))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    loaded = out.strip().splitlines()[-1]
    assert loaded == "['ida_kernel[engine.domains.tiles.ida_kernels._manhattan_h]', 'manhattan_sum']", loaded


def test_solve_batch_reads_a_file_of_positions_and_answers_each(capsys, tmp_path):
    boards = tmp_path / "boards.txt"
    boards.write_text("# the hardest 8-puzzle, then one move from the goal\n"
                      "8 6 7/2 5 4/3 0 1\n\n1 2 3 4 5 6 7 0 8  # R\n")
    code, out, _ = run(capsys, "solve-batch", "--size", "3x3", "--heuristic", "linear-conflict", str(boards), "--json")
    data = json.loads(out)
    assert code == 0 and data["solved"] == data["boards"] == 2
    assert [(r["length"], r["tiles"]) for r in data["results"]] == [(31, [8, 6, 7, 2, 5, 4, 3, 0, 1]),
                                                                   (1, [1, 2, 3, 4, 5, 6, 7, 0, 8])]
    boards.write_text("1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n")
    code, _, err = run(capsys, "solve-batch", "--size", "3x3", str(boards))
    assert code == 2 and "position 2 of the batch" in err
