"""Browser entry point: starts the Hearts UI (placeholder until the UI lands)."""
from pyscript import document

import hearts  # noqa: F401  (proves the engine archive is importable)

document.getElementById("app").textContent = "Hearts engine loaded"
document.documentElement.classList.add("ready")
