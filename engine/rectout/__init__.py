"""Rectangle-out (seed 003): a continuous sliding puzzle.

Issue #7 is not finished. Done: the geometry (``geometry``, with numba twins in ``kernels``), the puzzle
(``puzzle``), the moves of one plate or two touching plates as one (``moves``), A* with duplicate detection
(``search``) as a job (``jobs``), and the page (play by hand, solve from here). Open: from the start the search does
not reach the way out within its budget; docs/rectout.md has the measurements and the geometry behind them.
"""
