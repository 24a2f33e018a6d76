"""Classic search programs of seed 004: N queens, the knight's tour, path search on a small graph."""

#: the modules that register entries when imported, for ``engine.core.registry.load_all``:
#: the queens and knights counts
REGISTERS = ("jobs",)
