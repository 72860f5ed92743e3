"""The web client's message catalogues (services/web/static/locales/*.json) hold
exactly the keys the client uses, in every language, with the same placeholders;
and every platform error code has the client's own sentence."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from services.gateway.errors import STATUS

STATIC = Path(__file__).resolve().parents[2] / "services" / "web" / "static"
LANGUAGES = ("en", "fi", "hu")
#: A literal key: t("lobby.title") or t("event.opened", {...}); tr where a page calls its own state t.
KEY_CALL = re.compile(r"\btr?\(\s*\"([a-z0-9_.]+)\"")
#: Keys looked up by a code the server sends (ui.js `reason`): one per error code.
ERROR_PREFIX = "error."
#: And one per rule code the games name (ui.js `reason` too): the codes every game
#: shares and each game's own, as their rejection modules declare them.
RULE_PREFIX = "rule."
REPO = STATIC.parents[2]
RULE_MODULES = [
    REPO / "shared" / "kernel" / "rejection.py",
    *sorted(REPO.glob("shared/games/*/rejections.py")),
]
RULE_CODE = re.compile(r'^[A-Z_]+ = "([a-z_]+)"$', re.M)
#: Plural forms Intl.PluralRules may select (CLDR's categories).
CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Sentences a language writes as English does: Hungarian says "bot" and "farm" too, and
#: games keep the titles they are published under (Catan; Tigris & Euphrates in Finnish).
ALIKE = {
    ("hu", "lobby.bot"),
    ("hu", "table.badge_bot"),
    ("hu", "tigris.tile_blue"),
    ("fi", "game.tigris"),
    ("fi", "game.catan"),
    ("hu", "game.catan"),
}


def catalogue(language: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((STATIC / "locales" / f"{language}.json").read_text("utf-8"))
    return loaded


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in STATIC.rglob("*.js"):
        if "node_modules" not in path.parts:
            keys |= set(KEY_CALL.findall(path.read_text("utf-8")))
    return keys


def rule_codes() -> set[str]:
    return {code for path in RULE_MODULES for code in RULE_CODE.findall(path.read_text("utf-8"))}


def forms(entry: Any) -> list[str]:
    return [entry] if isinstance(entry, str) else list(entry.values())


def placeholders(entry: Any) -> set[str]:
    return {name for text in forms(entry) for name in PLACEHOLDER.findall(text)}


def test_the_client_finds_its_keys() -> None:
    # The regex must see the client's calls at all, or every check below is empty.
    assert {"lobby.title", "nav.lobby", "refusal.not_accepted"} <= used_keys()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalogue_holds_exactly_the_keys_the_client_uses(language: str) -> None:
    keys = set(catalogue(language))
    wanted = used_keys() | {ERROR_PREFIX + code for code in STATUS} | {RULE_PREFIX + c for c in rule_codes()}
    assert sorted(wanted - keys) == [], "keys the client uses but the catalogue lacks"
    assert sorted(keys - wanted) == [], "keys no client code uses"


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_a_catalogue_says_what_english_says_with_the_same_placeholders(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    assert other.keys() == english.keys()
    for key, entry in english.items():
        assert placeholders(other[key]) == placeholders(entry), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_a_sentence_or_plural_forms_with_other(language: str) -> None:
    for key, entry in catalogue(language).items():
        if isinstance(entry, str):
            assert entry.strip(), key
            continue
        assert isinstance(entry, dict) and "other" in entry and set(entry) <= CATEGORIES, key
        assert all(isinstance(text, str) and text.strip() for text in entry.values()), key


def test_the_rule_codes_are_found() -> None:
    # The games' codes must be read at all, or every game's refusal stays English unnoticed.
    assert {
        "not_your_turn",
        "tile_not_in_hand",
        "column_full",
        "invalid_trade",
        "stack_limit",
    } <= rule_codes()


def test_every_error_code_has_a_sentence_in_every_language() -> None:
    for language in LANGUAGES:
        entries = catalogue(language)
        missing = [code for code in STATUS if not isinstance(entries.get(ERROR_PREFIX + code), str)]
        assert missing == [], (language, missing)


def test_the_translations_are_not_english_left_in_place() -> None:
    # A sentence equal to the English one in Finnish or Hungarian is a translation
    # forgotten, unless it holds no words (placeholders, punctuation and the site's name only).
    english = catalogue("en")
    for language in LANGUAGES[1:]:
        for key, entry in catalogue(language).items():
            for text, original in zip(forms(entry), forms(english[key]), strict=False):
                words = re.sub(r"\{\w+\}|Ziggurat|[^A-Za-z]", "", original)
                if words and text == original and (language, key) not in ALIKE:
                    pytest.fail(f"{language} {key!r} is English: {text!r}")
