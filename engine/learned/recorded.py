"""The M curve recorded for issue 17 (seed 002), shown on the Learned page until a curve job runs on the server.
Written from the output of the command named in it; do not edit by hand."""

CURVE = None
