"""The Flask web app. Grows in the web issue; for now it starts and says so."""

from __future__ import annotations

from flask import Flask


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    if config:
        app.config.update(config)

    @app.get("/")
    def home() -> str:
        return "Puzzle Playground: the engine is ready; the web pages arrive with the web issue."

    return app
