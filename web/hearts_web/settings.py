"""Player settings, persisted in localStorage (language, look, difficulty, speed, rules)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from hearts import PRESETS, Rules

from . import store

DIFFICULTIES = ("easy", "medium", "hard")
SPEEDS = ("slow", "normal", "fast", "instant")
LOOKS = ("modern", "classic")

# (seconds a played card takes to fly in, pause before a finished trick is collected, collect time)
TIMINGS = {
    "slow": (0.55, 1.3, 0.5),
    "normal": (0.3, 0.8, 0.32),
    "fast": (0.15, 0.4, 0.18),
    "instant": (0.0, 0.0, 0.0),
}
# How long a bot "thinks" at least, so that the player can follow who plays what.
MIN_THINK = {"slow": 0.6, "normal": 0.35, "fast": 0.12, "instant": 0.0}


@dataclass
class Settings:
    lang: str = ""
    difficulty: str = "medium"
    look: str = "modern"
    speed: str = "normal"
    preset: str = "standard"
    rules: dict[str, Any] = field(default_factory=lambda: PRESETS["standard"].to_dict())

    @classmethod
    def load(cls) -> tuple["Settings", bool]:
        data, corrupt = store.load_dict(store.SETTINGS_KEY)
        s = cls()
        if data.get("lang") in ("de", "en"):
            s.lang = data["lang"]
        if data.get("difficulty") in DIFFICULTIES:
            s.difficulty = data["difficulty"]
        if data.get("look") in LOOKS:
            s.look = data["look"]
        if data.get("speed") in SPEEDS:
            s.speed = data["speed"]
        if isinstance(data.get("rules"), dict):
            try:
                s.rules = Rules.from_dict(data["rules"]).to_dict()
            except ValueError:
                corrupt = True
        if isinstance(data.get("preset"), str) and (data["preset"] in PRESETS or data["preset"] == "custom"):
            s.preset = data["preset"]
        return s, corrupt

    def save(self) -> None:
        store.set_json(store.SETTINGS_KEY, asdict(self))

    def rules_obj(self) -> Rules:
        try:
            return Rules.from_dict(self.rules)
        except ValueError:
            return PRESETS["standard"]
