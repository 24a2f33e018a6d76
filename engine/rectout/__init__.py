"""Rectangle-out (seed 003): a continuous sliding puzzle.

Issue #7 is not finished. Done: the geometry (``geometry``, with numba twins in ``kernels``), the puzzle
(``puzzle``), the one-plate move set (``moves``), A* with duplicate detection (``search``) as a job (``jobs``), and
the page (play by hand, solve from here). Open: with one plate per motion the search does not reach a solution
within its budget (about 7.5 new states per state per level), so the paper's set moves (several plates turning
together) are next.
"""
