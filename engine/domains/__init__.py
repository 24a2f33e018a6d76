"""Problem domains written to the domain contract (``engine.search.domain``): one folder each.

``graph``: a graph given as data (named nodes, any positive costs, an h table or straight-line distance);
``grid``: grid maps with walls and weighted cells, 4- or 8-connected, and Moving AI's benchmark formats.
"""
