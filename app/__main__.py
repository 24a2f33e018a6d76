"""``python -m app``: serve the playground on its embedded defaults (SQLite job store, a local Dask cluster)."""

import sys

from app.serve import main

if __name__ == "__main__":  # worker processes are spawned and import this module again: start only once
    sys.exit(main())
