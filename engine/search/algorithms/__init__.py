"""Breadth-first, depth-first, iterative-deepening, uniform-cost, greedy best-first, A*, IDA* and bidirectional
breadth-first search, written to read like their pseudocode.

Each returns a SolveResult. A path is a tuple of actions; ``problem.format_path`` turns it into the result's move
string. ``trace``, if given, is called as ``trace(event, data)``; the step-through views replay these events:

* ``expand``: a node is taken from the frontier (state, g, h, path);
* ``generate``: a child joins the frontier (state, g, h, path);
* ``duplicate``: a child is dropped because its state was already reached by a path at least as short (the
  depth-first family: because its state is already on the path to it);
* ``stale``: a best-first search pops a frontier entry that a cheaper path to its state has replaced, and drops it;
* ``prune``: a child is cut off, by the depth limit (DFS, IDS) or because f = g + h exceeds the bound (IDA*);
* ``bound``: IDS or IDA* starts an iteration (bound, previous bound, and for IDA* the least f cut off, which is why
  the new bound is what it is);
* ``goal``: the search ends with a path.

Every event also carries the search's own counters at that moment (``expanded``, ``generated`` and, where there is
one, ``frontier``), so a view shows the engine's numbers rather than recounting them.

g is the cost of the path (``problem.cost`` per action: 1 for a tile move, an edge's cost on a graph) for the
searches that order by it (uniform-cost, greedy, A*, IDA*); the breadth-first and depth-first families count
actions, which is why on a graph with costs they find the fewest edges rather than the cheapest path. Move order and
pruning match the numba kernels (children in the problem's action order; the depth-first family never undoes the
action that led to a node, using ``problem.inverse``), so IDA*'s node counts agree exactly with its kernel, which
the tests check. Depth-first and iterative-deepening search also skip a child whose state is already on the path to
it, so the path they return never visits a state twice (on a graph a cycle longer than one edge would otherwise be
walked round and round).

One module per search (``bfs``, ``dfs``, ``ids``, ``ucs``, ``greedy``, ``astar``, ``idastar``, ``bidirectional``;
uniform-cost, greedy and A* are ``best_first`` with their own priority; ``common`` holds what they share). Each
registers its ``Algorithm`` record (``engine.search.record``) beside it: title, pseudocode, frontier, whether it is
optimal and its place in the menus. The step-through reads nothing else. This package imports every module in it, so
a new search is registered by being here; its functions are read from their modules (or from ``engine.search``).
"""

import importlib
import pkgutil

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_module.name}")
