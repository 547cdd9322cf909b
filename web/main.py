"""PyScript entry point: start the Hearts table (see hearts_web.controller)."""

from hearts_web.controller import Controller

Controller().start()
