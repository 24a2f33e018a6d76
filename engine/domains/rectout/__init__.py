"""Rectangle-out (seed 003): a continuous sliding puzzle.

``geometry`` is the exact plane geometry in plain Python; ``collision_kernels`` and ``turn_kernels`` are its numba
twins (held equal by a test) and the turn sweeps; ``fan_kernels`` turns several plates at once and has no plain
twin (its test is the case worked out by hand). ``puzzle`` holds the box, the plates and a state;
``contacts`` a body of plates and what it touches; ``motion`` how a body translates, turns or turns with a partner
until it stops; ``moves`` every motion from a state (the search's move generator); ``by_hand`` the page's play by
hand; ``search`` A* over feature points with duplicate detection, run as a job by ``jobs``. From the default start
the search gets the target out in the paper's 6 moves (12 motions); docs/rectout.md has the answer, the
measurements and the geometry behind them.
"""

