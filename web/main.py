"""PyScript entry point: start the Hearts table (all work happens in hearts_web.app)."""

from hearts_web.app import App

App().start()
