"""``python -m app``: start the playground on its embedded defaults (SQLite job store, in-process jobs)."""

import os

from app import create_app

app = create_app()
app.run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "5000")), threaded=True)
