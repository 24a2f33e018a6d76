"""Rectangle-out (seed 003): a continuous sliding puzzle. So far: the geometry layer (issue #7 is not finished)."""
