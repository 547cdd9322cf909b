"""Player settings (language, look, difficulty, speed, rules) and their stored form (the key they are
stored under is declared in :mod:`hearts_web.data.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hearts import PRESETS, Rules, preset_name

from .store import Decoded, Repairs, Unreadable

__all__ = ["Settings", "DIFFICULTIES", "SPEEDS", "LOOKS", "TIMINGS", "MIN_THINK"]

DIFFICULTIES = ("easy", "medium", "hard")
SPEEDS = ("slow", "normal", "fast", "instant")
LOOKS = ("modern", "classic")
DECKS = ("two", "four")  # two colours (red and black), or four (clubs green, diamonds blue)
LANGS = ("de", "en")
_KNOWN = {
    "lang", "difficulty", "look", "speed", "deck", "autoplay", "mute_reactions", "storage_told", "preset", "rules",
}  # fmt: skip

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
    lang: str = ""  # "" until the player picks one: the browser's language decides
    difficulty: str = "medium"
    look: str = "modern"
    speed: str = "normal"
    deck: str = "two"
    autoplay: bool = True  # a forced card (the only legal one) plays itself after a short beat
    mute_reactions: bool = False  # at an online table, the others' quick reactions are not shown
    storage_told: bool = False  # the player closed the notice that this browser may delete the data
    rules: Rules = field(default_factory=lambda: PRESETS["standard"])

    @property
    def preset(self) -> str:
        """The rules' preset name, or ``"custom"``."""
        return preset_name(self.rules) or "custom"

    @classmethod
    def decode(cls, data: object) -> Decoded[Settings]:
        """Settings from stored data (:mod:`hearts_web.data.registry`): unknown keys and bad values
        fall back to the defaults, each noted in the repairs (by its name); the rules keep every
        option that can be read on its own. :class:`Unreadable` when it is no object."""
        if not isinstance(data, Mapping):
            raise Unreadable("settings must be an object")
        s, repairs = cls(), Repairs()
        repairs.note("unknown", len(set(data) - _KNOWN))
        for name, allowed in (
            ("lang", ("", *LANGS)),
            ("difficulty", DIFFICULTIES),
            ("look", LOOKS),
            ("speed", SPEEDS),
            ("deck", DECKS),
            ("autoplay", (True, False)),
            ("mute_reactions", (True, False)),
            ("storage_told", (True, False)),
        ):
            if name in data:
                value = data[name]
                if type(value) is type(allowed[0]) and value in allowed:
                    setattr(s, name, value)
                else:
                    repairs.note(name)
        if "rules" in data:
            raw = data["rules"]
            try:
                if not isinstance(raw, Mapping):
                    raise ValueError("rules must be an object")
                s.rules = Rules.from_dict(raw)
            except (ValueError, TypeError, AttributeError):
                repairs.note("rules")
                s.rules = _good_rules(raw)
        return Decoded(s, repairs)

    def to_dict(self) -> dict[str, object]:
        return {
            "lang": self.lang,
            "difficulty": self.difficulty,
            "look": self.look,
            "speed": self.speed,
            "deck": self.deck,
            "autoplay": self.autoplay,
            "mute_reactions": self.mute_reactions,
            "storage_told": self.storage_told,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
        }


def _good_rules(data: object) -> Rules:
    """The rules made of the options that can be read on their own (the rest take the defaults)."""
    if not isinstance(data, Mapping):
        return PRESETS["standard"]
    good = {}
    for name, value in data.items():
        try:
            Rules.from_dict({name: value})
        except (ValueError, TypeError, AttributeError):
            continue
        good[name] = value
    try:
        return Rules.from_dict(good)
    except (ValueError, TypeError, AttributeError):
        return PRESETS["standard"]
