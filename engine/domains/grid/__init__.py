"""Grid maps: walls and weighted cells, 4- or 8-connected, and Moving AI's benchmark formats."""
