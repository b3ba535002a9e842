"""Every French label the user reads, in one place: the CLI, the app and the library's own
explanations all take their words from here.

Tables are keyed by the library's string values (enum members compare equal to them), so
this module imports nothing from `judge` and costs nothing to load."""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType
from typing import Final

# --- general ---

# How a citation of another rule stands in the corpus of its own edition.
REFERENCE_STATUS: Final = MappingProxyType(
    {"resolved": "présente", "title_only": "titre seul", "missing": "absente du corpus"}
)

# What a rule number names.
RULE_KIND: Final = MappingProxyType(
    {"chapter": "Chapitre", "section": "Section", "rule": "Règle", "subrule": "Sous-règle"}
)

# Why a search hit was found.
HIT_KIND: Final = MappingProxyType(
    {
        "number": "numéro",
        "reference": "cite ce numéro",
        "text": "texte",
        "glossary": "glossaire",
    }
)


def see_rules(numbers: Iterable[str]) -> str:
    """Where a glossary entry sends: « voir la règle 702.4 », « voir les règles 208, 302.4 »."""
    found = list(numbers)
    return ("voir la règle " if len(found) == 1 else "voir les règles ") + ", ".join(found)


def also_in(editions: list[str]) -> str:
    """The other editions that hold a search hit's rule (one hit per rule)."""
    return "aussi dans " + ", ".join(editions)


def also_in_copies(number: str, copies: Iterable[tuple[str, str]]) -> str:
    """« aussi dans … » for a hit's copies (edition, number), a number only where it differs."""
    return also_in([e if n == number else f"{e} ({n})" for e, n in copies])


def era_asked(before: int | None, year: int | None, now: bool, editions: list[str]) -> str:
    """What a search read of the time a question asks about (« avant 2009 », « en 2011 »,
    « les règles actuelles », « les anciennes règles »), and the editions that then lead."""
    when = (
        f"d'avant {before}"
        if before is not None
        else f"de {year}"
        if year is not None
        else "actuelles"
        if now
        else "anciennes"
    )
    shown = ", ".join(editions[:3])
    if len(editions) > 3:
        shown += f" et {len(editions) - 3} autres"
    return f"Règles {when} demandées : {shown} en premier."


# How a document is laid out (the --format choices).
LAYOUT: Final = MappingProxyType(
    {
        "auto": "Détection automatique",
        "official": "Texte officiel (Wizards)",
        "html": "Page HTML",
        "scraped": "Texte copié d'un site",
        "glued_2011": "Texte 2011 (règles collées)",
        "inline_pre2009": "Ancienne numérotation (avant 2009)",
    }
)

# Which numbering an edition follows.
NUMBERING: Final = MappingProxyType({"modern": "moderne", "pre2009": "avant 2009"})

# How a version of a rule differs from the one before it (judge history).
VERSION_CHANGE: Final = MappingProxyType(
    {
        "added": "apparaît",
        "changed": "modifiée",
        "unchanged": "inchangée",
        "renumbered": "renumérotée",
        "removed": "retirée",
    }
)

# Where an edition comes from.
SHIPPED: Final = MappingProxyType({True: "livrée", False: "importée"})

# --- rules ---

# How the concordance found a link (judge.rules.concordance, `Link.method`).
METHOD: Final = MappingProxyType(
    {
        "curated": "table de renumérotation établie (corpus/renumbering.toml)",
        "same_number": "même numéro, titre ou texte concordant",
        "title": "titres des sommaires",
        "text": "similarité du texte",
        "translation": "traduction (même numérotation)",
    }
)

# --- end rules ---

# --- engine ---
# The state-based-action engine (judge/engine): keyed by the engine's string values (ruleset
# names, variants, zones, action and note kinds, rule numbers).

# The rulesets, by name.
RULESET_LABELS: Final = MappingProxyType(
    {
        "fr-2024": "règles complètes 2024 (704)",
        "fr-pre2009": "anciennes règles, avant 2009 (420)",
    }
)
# A ruleset built from an edition of the rule index (`judge sba --ruleset en-2025-11-14`).
EDITION_RULESET_LABEL: Final = "règles de l'édition {edition}"
# The state-based actions of an edition that the engine does not model (a warning).
UNMODELLED_RULES: Final = (
    "édition {edition} : règles non modélisées par le moteur, non appliquées : {rules}"
)
# A ruleset without state-based actions of its own for the variants (after « variante « X » : »).
RULESET_WITHOUT_VARIANT_ACTIONS: Final = MappingProxyType(
    {
        "fr-pre2009": "le texte de 420.5 n'a pas d'effets basés sur un état propres aux "
        "variantes ; seules les règles 420.5a–k sont appliquées",
    }
)
# A ruleset that asks for no choice (why a stated choice is ignored).
RULESET_WITHOUT_CHOICES: Final = MappingProxyType(
    {"fr-pre2009": "les anciennes règles (420.5) ne demandent aucun choix"}
)

VARIANT_LABELS: Final = MappingProxyType(
    {
        "normal": "partie normale",
        "two-headed-giant": "Troll à deux têtes",
        "commander": "Commander",
        "archenemy": "Archenemy",
        "planechase": "Planechase",
    }
)
ZONE_LABELS: Final = MappingProxyType(
    {
        "library": "bibliothèque",
        "hand": "main",
        "graveyard": "cimetière",
        "exile": "exil",
        "stack": "pile",
        "command": "zone de commandement",
    }
)
# A zone after « dans » (« jeton dans le cimetière »).
ZONE_IN: Final = MappingProxyType(
    {
        "library": "la bibliothèque",
        "hand": "la main",
        "graveyard": "le cimetière",
        "exile": "l'exil",
        "stack": "la pile",
        "command": "la zone de commandement",
    }
)
# Where a commander was put (704.6d: « commandant mis au cimetière »).
ZONE_AT: Final = MappingProxyType({"graveyard": "au cimetière", "exile": "en exil"})
# Why a resolution stopped.
STOP_LABELS: Final = MappingProxyType(
    {
        "choice": "arrêt : un choix est nécessaire",
        "loop": "arrêt : l'état ne change plus alors que des actions s'appliquent encore "
        "(boucle d'actions obligatoires)",
        "limit": "arrêt : nombre maximal de passes atteint",
    }
)

# What a state-based action did, agreeing with a masculine object (« Louveteau : mis au
# cimetière »); the feminine forms are for une Aura, une Saga, une bataille.
ACTION_LABELS: Final = MappingProxyType(
    {
        "lose_game": "perd la partie",
        "put_into_graveyard": "mis au cimetière",
        "destroy": "détruit",
        "regenerate": "régénéré",
        "cease_to_exist": "cesse d'exister",
        "unattach": "détaché",
        "remove_counters": "marqueurs retirés",
        "sacrifice": "sacrifié",
        "move_to_command_zone": "mis dans la zone de commandement",
        "choose_protector": "protecteur choisi",
        "exile": "exilé",
        # added by this engine
        "choose_sector": "secteur choisi",
        "remove_from_game": "retiré de la partie",
        "replace_loss": "défaite remplacée",
        "set_speed": "vitesse 1",
        "leave_game": "quitte la partie",
        "revert_control": "revient à son contrôleur précédent",
        "end_bestow": "redevient une créature",
        "scheme_to_bottom": "mis face cachée sous son paquet de machinations",
        "planeswalk": "change de plan",
    }
)
ACTION_LABELS_FEMININE: Final = MappingProxyType(
    {
        "put_into_graveyard": "mise au cimetière",
        "destroy": "détruite",
        "regenerate": "régénérée",
        "unattach": "détachée",
        "sacrifice": "sacrifiée",
        "move_to_command_zone": "mise dans la zone de commandement",
        "exile": "exilée",
        "remove_from_game": "retirée de la partie",
        "scheme_to_bottom": "mise face cachée sous son paquet de machinations",
    }
)
# The action labels that do not agree with the object (a verb, or a noun with its own
# participle: « perd la partie », « protecteur choisi »); every other has a feminine form.
ACTION_LABELS_INVARIANT: Final = frozenset(
    {
        "lose_game",
        "cease_to_exist",
        "remove_counters",
        "choose_protector",
        "choose_sector",
        "replace_loss",
        "set_speed",
        "leave_game",
        "revert_control",
        "end_bestow",
        "planeswalk",
    }
)
# Why an action was not performed (the notes of a pass).
NOTE_LABELS: Final = MappingProxyType(
    {
        "prevented": "empêché",
        "replaced": "remplacé",
        "not_applicable": "ne s'applique pas",
        "not_replaceable": "régénération impossible",
        "not_prevented": "indestructible sans effet",
        "not_triggered": "ne se déclenche pas",
        "declined": "refusé",
        "not_replaced": "remplacement sans effet",
    }
)
# Counters and dies-trigger keywords (board files use the English terms).
COUNTER_LABELS: Final = MappingProxyType(
    {
        "loyalty": "loyauté",
        "lore": "histoire",
        "defense": "défense",
        "poison": "poison",
        "shield": "bouclier",
    }
)
ABILITY_LABELS: Final = MappingProxyType({"persist": "survivance", "undying": "immortalité"})
# Colors, card types and what an Aura can enchant.
TERM_LABELS: Final = MappingProxyType(
    {
        "white": "blanc",
        "blue": "bleu",
        "black": "noir",
        "red": "rouge",
        "green": "vert",
        "artifact": "artefact",
        "battle": "bataille",
        "creature": "créature",
        "enchantment": "enchantement",
        "land": "terrain",
        "planeswalker": "planeswalker",
        "kindred": "tribal",
        "tribal": "tribal",
        "instant": "éphémère",
        "sorcery": "rituel",
        "permanent": "permanent",
        "player": "joueur",
        "everything": "tout",
    }
)
# Each state-based action, by its rule number, in short.
CHECK_LABELS: Final = MappingProxyType(
    {
        "704.5a": "0 point de vie ou moins",
        "704.5b": "pioche dans une bibliothèque vide",
        "704.5c": "dix marqueurs poison",
        "704.5d": "jeton hors du champ de bataille",
        "704.5e": "copie hors de sa zone",
        "704.5f": "endurance 0 ou moins",
        "704.5g": "blessures mortelles",
        "704.5h": "blessures de contact mortel",
        "704.5i": "planeswalker à 0 loyauté",
        "704.5j": "règle des légendes",
        "704.5k": "règle des mondes",
        "704.5m": "Aura illégale",
        "704.5n": "Équipement ou Fortification illégal",
        "704.5p": "créature, bataille ou autre attachée",
        "704.5q": "marqueurs +1/+1 et -1/-1",
        "704.5r": "marqueurs au-delà du maximum",
        "704.5s": "Saga terminée",
        "704.5t": "donjon terminé",
        "704.5u": "créatures sans secteur",
        "704.5v": "bataille à 0 défense",
        "704.5w": "bataille sans protecteur",
        "704.5x": "Siège protégé par son contrôleur",
        "704.5y": "plusieurs Rôles",
        "704.5z": "vitesse d'un joueur",
        "704.6a": "équipe à 0 point de vie",
        "704.6b": "équipe à quinze marqueurs poison",
        "704.6c": "21 blessures de commandant",
        "704.6d": "commandant vers la zone de commandement",
        "704.6e": "machination face visible",
        "704.6f": "phénomène face visible",
        "420.5": "hors du texte de 420.5",
        "420.5a": "0 point de vie ou moins",
        "420.5b": "endurance 0 ou moins",
        "420.5c": "blessures fatales",
        "420.5d": "enchantement local illégal",
        "420.5e": "règle des légendes (toutes les copies)",
        "420.5f": "jeton hors du jeu",
        "420.5g": "pioche impossible",
        "420.5h": "dix marqueurs poison",
        "420.5i": "règle des mondes",
        "420.5j": "copie hors de sa zone",
        "420.5k": "équipement illégal",
    }
)

# The json module's messages, by prefix (some end with a detail), for a board file.
BOARD_JSON_ERRORS: Final = (
    ("Expecting value", "valeur attendue"),
    ("Expecting property name enclosed in double quotes", "nom de champ entre guillemets attendu"),
    ("Expecting ':' delimiter", "« : » attendu"),
    ("Expecting ',' delimiter", "« , » attendu"),
    ("Unterminated string starting at", "chaîne sans guillemet fermant"),
    ("Invalid control character", "caractère de contrôle interdit dans une chaîne"),
    ("Invalid \\uXXXX escape", "séquence « \\uXXXX » invalide"),
    ("Invalid \\escape", "séquence d'échappement « \\ » invalide"),
    ("Extra data", "texte en trop après la fin du JSON"),
    ("Illegal trailing comma", "virgule en trop avant la fin"),
)
# shlex's messages, for a board in the compact form.
BOARD_SHLEX_ERRORS: Final = MappingProxyType(
    {
        "No closing quotation": "guillemets non fermés",
        "No escaped character": "« \\ » en fin de ligne, sans caractère à protéger",
    }
)
# Why a board file cannot be read, by errno name (strerror is in the system's language).
BOARD_FILE_ERRORS: Final = MappingProxyType(
    {
        "ENOENT": "fichier introuvable",
        "EISDIR": "est un dossier, pas un fichier",
        "EACCES": "lecture non autorisée (permissions)",
        "EPERM": "lecture non autorisée (permissions)",
        "ENOTDIR": "un élément du chemin n'est pas un dossier",
        "ENAMETOOLONG": "nom de fichier trop long",
        "ELOOP": "trop de liens symboliques",
        "EIO": "erreur d'entrée-sortie",
        "ENXIO": "périphérique introuvable",
    }
)
# --- end engine ---

# --- app ---
# The sandbox's editable tables (ui/views/board_tables.py): a column per board field, keyed by
# the board file's field names; "extra" is the column holding every other field, as JSON.
BOARD_FIELD_LABELS: Final = MappingProxyType(
    {
        "name": "Nom",
        "life": "Points de vie",
        "poison": "Poison",
        "drew_from_empty_library": "A pioché (bibliothèque vide)",
        "cant_lose": "Ne peut pas perdre",
        "lost": "A perdu",
        "id": "Identifiant",
        "controller": "Contrôleur",
        "owner": "Propriétaire",
        "types": "Types",
        "supertypes": "Sur-types",
        "subtypes": "Sous-types",
        "power": "Force",
        "toughness": "Endurance",
        "damage": "Blessures",
        "deathtouch_damage": "Blessures (contact mortel)",
        "counters": "Marqueurs",
        "keywords": "Capacités",
        "indestructible": "Indestructible",
        "regeneration_shields": "Boucliers de régénération",
        "token": "Jeton",
        "attached_to": "Attaché à",
        "zone": "Zone",
        "extra": "Autres champs (JSON)",
    }
)
# Card supertypes, as the sandbox's tables show them (card types: TERM_LABELS).
SUPERTYPE_LABELS: Final = MappingProxyType(
    {
        "basic": "de base",
        "legendary": "légendaire",
        "ongoing": "en cours",
        "snow": "neige",
        "world": "monde",
    }
)
# The board's lists, as the tables that edit them are titled.
BOARD_TABLE_LABELS: Final = MappingProxyType(
    {"players": "Joueurs", "permanents": "Permanents", "other_zones": "Autres zones"}
)

# The date is always visible (`judge rule`, the Règle page): an edition's language after « en ».
LANGUAGE_NAMES: Final = MappingProxyType({"fr": "français", "en": "anglais"})
OTHER_LANGUAGE: Final = MappingProxyType({"fr": "en", "en": "fr"})
EDITION_DATED: Final = "Édition {edition} — en vigueur : {when}"
NEWEST_KNOWN: Final = "texte le plus récent connu en {language}"
NEWER_EXISTS: Final = "une édition plus récente existe : {edition} ({when})"
NEWER_AS: Final = ", règle {rule}"
NEWER_GONE: Final = ", où cette règle n'apparaît plus"
OTHER_NEWER: Final = "En {language}, une édition plus récente existe : {edition} ({when})"
UNKNOWN_DATE: Final = "date inconnue"


def when(date: str, era: str) -> str:
    """An edition's effective date as a reader says it: « 04/02/2011 » for a full date, else
    its era (« printemps 2024 (avant « Kindred ») »), else its year."""
    parts = date.split("-")
    if len(parts) == 3 and all(p.isdigit() for p in parts):
        return f"{parts[2]}/{parts[1]}/{parts[0]}"
    return era or date or UNKNOWN_DATE


# The Nouveautés page (ui/views/nouveautes.py): what a release changed.
CHANGE_KINDS: Final = MappingProxyType(
    {
        "added": "ajoutées",
        "removed": "retirées",
        "changed": "modifiées",
        "moved": "déplacées",
    }
)
# The Recherche page when a search finds nothing useful (no hit, or glossary entries only) and
# on the first visit: what the corpus holds, and how to add the complete official rules.
CORPUS_COVERAGE_TITLE: Final = "Ce que contient le corpus"
CORPUS_COVERAGE_EMPTY: Final = (
    "Aucune règle du corpus ne répond à cette recherche : la section qui en traite n'est "
    "peut-être pas dans les textes disponibles."
)
CORPUS_COVERAGE_INTRO: Final = (
    "Les textes disponibles ne contiennent que quelques sections des règles complètes :"
)
CORPUS_COVERAGE_HOWTO: Final = (
    "Pour chercher dans toutes les règles, téléchargez le fichier texte des « Comprehensive "
    "Rules » sur la page des règles de Wizards of the Coast, puis importez-le sur la page "
    "Corpus ou avec la commande « judge ingest FICHIER »."
)
RULES_PAGE_URL: Final = "https://magic.wizards.com/en/rules"
RULES_PAGE_LABEL: Final = "Page des règles de Wizards of the Coast"
CORPUS_PAGE_LABEL: Final = "Importer sur la page Corpus"
# --- end app ---
