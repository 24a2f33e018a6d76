"""Classic search programs of seed 004: N queens, the knight's tour, path search on a small graph."""

