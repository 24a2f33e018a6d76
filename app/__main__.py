"""``python -m app``: serve the playground on its embedded defaults (SQLite job store, a local Dask cluster);
``python -m app cluster``: run only the Dask cluster that several web processes share (``app.processes``)."""

import sys

from app.serve import main

if __name__ == "__main__":  # worker processes are spawned and import this module again: start only once
    if sys.argv[1:2] == ["cluster"]:
        from app.processes import cluster_command

        sys.exit(cluster_command(sys.argv[2:]))
    sys.exit(main())
