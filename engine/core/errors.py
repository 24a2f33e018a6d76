"""The one exception type the engine raises for bad input.

The app turns it into a 400 (JSON ``{"error": ...}`` or an error fragment) and the CLI into a message on stderr
with exit status 2, so its message must read well on its own: say what is wrong and, where it helps, what to do.
"""


class PuzzleError(ValueError):
    """Bad input to the engine: a malformed board, an unsolvable position, an unknown solver, a size out of range."""
