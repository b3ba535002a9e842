"""detect_language: French vs English paragraphs of rules."""

from __future__ import annotations

import pytest

from judge.rules.language import detect_language

ENGLISH = [
    "If a battle or creature is attached to an object or player, it becomes unattached and "
    "remains on the battlefield.",
    "704.5g If a creature has toughness greater than 0, and the total damage marked on it is "
    "greater than or equal to its toughness, that creature has been dealt lethal damage and is "
    "destroyed.",
    'Example: The activation cost of an ability that reads "{2}, {T}: You gain 1 life" is two '
    "mana of any color plus tapping the permanent.",
    "If two or more legendary permanents with the same name are in play, all are put into their "
    "owners' graveyards.",
    # An English sentence naming a French card must stay English.
    "The player who controls Miroir de la liche doesn't lose the game.",
]

FRENCH = [
    "Si une créature a une endurance inférieure ou égale à 0, elle est mise dans le cimetière "
    "de son propriétaire.",
    "Exemple : Un joueur contrôle une créature avec la capacité « La force et l'endurance de "
    "cette créature sont chacune égale au nombre de cartes que vous avez en main ».",
    "Les actions basées sur un état sont vérifiées tout le long de partie et ne sont contrôlées "
    "par aucun joueur.",
    # A French sentence quoting English card names must stay French.
    "Forest, Island, Mountain, Plains et Swamp sont les types de terrains de base.",
    # Without accents (old sites, ASCII exports): the stop words decide.
    "Si un joueur a dix marqueurs poison ou plus, il perd la partie.",
]


@pytest.mark.parametrize("text", ENGLISH)
def test_english(text: str) -> None:
    assert detect_language(text) == "en"
    assert detect_language(text, default="fr") == "en"


@pytest.mark.parametrize("text", FRENCH)
def test_french(text: str) -> None:
    assert detect_language(text) == "fr"
    assert detect_language(text, default="en") == "fr"


@pytest.mark.parametrize("text", ["", "OK", "704.5g", "See X.", "Abandon", "Troll à deux têtes"])
def test_short_strings_default_to_french(text: str) -> None:
    assert detect_language(text) == "fr"


def test_short_strings_follow_the_given_default() -> None:
    # Short glossary lines of an English document ("See X.") take the document's language.
    assert detect_language("See X.", default="en") == "en"
    assert detect_language("Combat Damage Step", default="en") == "en"


def test_accents_break_ties() -> None:
    # No stop word on either side: accents decide.
    assert detect_language("Éphémère rituel créature artefact", default="en") == "fr"
    assert detect_language("Instant sorcery creature artifact", default="en") == "en"
    assert detect_language("Instant sorcery creature artifact", default="fr") == "fr"


def test_elisions_count_as_french() -> None:
    assert detect_language("l'objet qu'il n'a d'abord", default="en") == "fr"


def test_curly_apostrophes() -> None:
    assert detect_language("Ce n’est qu’une règle d’or", default="en") == "fr"
    assert detect_language("It doesn’t matter when it’s the player’s turn", default="fr") == "en"
