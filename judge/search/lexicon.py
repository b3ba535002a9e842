"""The words a query is read with: the bilingual glossary (`corpus/glossary-fr-en.toml`),
analysed for the query's matching, and the word lists (real French words, never corrected;
words that frame a question). Analysing them takes a tenth of a second, which a fresh
process would pay before its first answer: `load_lexicon` keeps the analysis in the cache
folder, named by the files and the code that analyse them."""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from judge.rules.cache import publish
from judge.rules.index import CORPUS_DIR
from judge.search import analysis
from judge.search.analysis import TOKEN_RE, AnalyzerLanguage, fold_token, normalize
from judge.search.errors import SearchError
from judge.search.index import search_root

GLOSSARY_PATH = CORPUS_DIR / "glossary-fr-en.toml"
FRENCH_WORDS_PATH = CORPUS_DIR / "mots-fr.txt"  # real French words, never "corrected"
# words that frame a question (devient, il se passe, can, happens): searched, weighing little
QUESTION_WORDS_PATH = CORPUS_DIR / "mots-de-question.txt"
_LANGUAGES: tuple[AnalyzerLanguage, ...] = ("fr", "en")
_FORMAT = "judge-lexicon 1"
_FOLDER = "lexicon"  # under the search's cache folder


@dataclass(frozen=True)
class GlossaryTerm:
    fr: tuple[str, ...]
    en: tuple[str, ...]
    source: str
    old: tuple[str, ...] = ()  # forms (of fr or en) that only older editions use
    # what a judge looks up with it (répondre → pile): searched too, weighing little
    related: tuple[str, ...] = ()
    # the word or term just before it is what the player wants to do at that moment
    # (« sacrifier en réponse »): it frames the question and weighs as a question word
    frames: bool = False

    def forms(self, language: AnalyzerLanguage) -> tuple[str, ...]:
        return self.fr if language == "fr" else self.en


@dataclass(frozen=True)
class _Variant:
    term: int  # index in Glossary.terms
    language: AnalyzerLanguage
    text: str
    keys: tuple[str, ...]  # word keys, stop words kept
    content: tuple[str, ...]  # index terms (stop words dropped)
    old: bool = False  # an older wording (zone en jeu, mana burn…)


@dataclass
class Glossary:
    terms: list[GlossaryTerm]
    variants: list[_Variant] = field(default_factory=list)
    words: set[str] = field(default_factory=set)  # folded words, for the typo corrector
    by_language: dict[str, set[str]] = field(default_factory=dict)  # the same, per language
    # (language, "keys" or "content", first word) -> the variants that start with it
    _starts: dict[tuple[str, str, str], list[int]] = field(default_factory=dict)

    def starting(self, language: str, kind: str, first: str) -> list[int]:
        return self._starts.get((language, kind, first), [])

    def of_term(self, term: int) -> list[int]:
        """The variants (forms in both languages) of one glossary term."""
        return self._starts.get(("", "term", str(term)), [])

    display: dict[str, str] = field(default_factory=dict)
    # a form as written (normalised) -> the languages whose glossary forms include it
    _form_languages: dict[str, set[AnalyzerLanguage]] = field(default_factory=dict)

    def languages_of(self, form: str) -> tuple[AnalyzerLanguage, ...]:
        """The languages to read `form` in: those whose glossary forms include it (« pile »
        is French: the English word is a pile of cards), else both."""
        found = self._form_languages.get(normalize(form))
        return tuple(lang for lang in _LANGUAGES if lang in found) if found else _LANGUAGES

    def __post_init__(self) -> None:
        if not self.variants:  # else given whole, as the cache keeps it (`load_lexicon`)
            self._analyse()

    def _analyse(self) -> None:
        for i, term in enumerate(self.terms):
            old = {normalize(t) for t in term.old}
            for lang in _LANGUAGES:
                for text in term.forms(lang):
                    self._form_languages.setdefault(normalize(text), set()).add(lang)
                    raw = [m.group(0) for m in TOKEN_RE.finditer(text)]
                    keys = tuple(analysis.word_key(w, lang) for w in raw)
                    content = tuple(analysis.terms(text, lang))
                    # a form of stop words only (« va où ») is recognised by its words and
                    # searched through what it is looked up with
                    if keys and (content or term.related):
                        is_old = normalize(text) in old
                        number = len(self.variants)
                        self.variants.append(_Variant(i, lang, text, keys, content, is_old))
                        self._starts.setdefault((lang, "keys", keys[0]), []).append(number)
                        if content:
                            self._starts.setdefault((lang, "content", content[0]), []).append(
                                number
                            )
                        self._starts.setdefault(("", "term", str(i)), []).append(number)
                    for w in raw:
                        folded = fold_token(w)
                        self.words.add(folded)
                        self.by_language.setdefault(lang, set()).add(folded)
                        self.display.setdefault(folded, w.lower())


def load_words(path: Path) -> set[str]:
    """A word list (one a line, `#` comments), folded; empty when the file is missing."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    return {fold_token(w) for line in lines if (w := line.strip()) and not w.startswith("#")}


def clitics_folded(word: str) -> str:
    """A typed word folded and without its French elision (`l'aura` → `aura`)."""
    return analysis.clitics(fold_token(word), "fr")[0]


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"« frames » attend true ou false, pas {value!r}")
    return value


def load_glossary(path: Path | None = None) -> Glossary:
    import tomllib  # only when a searcher opens

    path = path or GLOSSARY_PATH
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        terms = [
            GlossaryTerm(
                tuple(t.get("fr", ())),
                tuple(t.get("en", ())),
                str(t.get("source", "")),
                tuple(t.get("old", ())),
                tuple(t.get("related", ())),
                _flag(t.get("frames", False)),
            )
            for t in data.get("term", [])
        ]
    except (OSError, tomllib.TOMLDecodeError, AttributeError, TypeError) as exc:
        raise SearchError(f"Glossaire illisible : {path} ({exc})") from exc
    return Glossary(terms)


@dataclass(frozen=True)
class Lexicon:
    glossary: Glossary
    french: frozenset[str]  # folded real French words (FRENCH_WORDS_PATH)
    question_words: frozenset[str]  # folded (QUESTION_WORDS_PATH)


def lexicon_folder(home: Path | None = None) -> Path:
    """Where a home keeps its analysis (`load_lexicon`)."""
    return search_root(home) / _FOLDER


def prepare(home: Path | None = None) -> None:
    """Keep the analysis for the next search (after an ingest): a glossary that cannot be
    read is left for that search to report."""
    with contextlib.suppress(SearchError):
        load_lexicon(lexicon_folder(home))


def load_lexicon(folder: Path | None = None) -> Lexicon:
    """The shipped glossary and word lists, analysed; kept in `folder` (read back when the
    files and the code are the ones that wrote it, else analysed again and kept)."""
    sources = [GLOSSARY_PATH, FRENCH_WORDS_PATH, QUESTION_WORDS_PATH]
    key = _key(sources) or ""
    path = folder / f"{key[:24]}.json" if folder is not None and key else None
    if path is not None:
        with contextlib.suppress(OSError):
            kept = _restore(path.read_bytes(), key)
            if kept is not None:
                return kept
    lexicon = Lexicon(
        load_glossary(GLOSSARY_PATH),
        frozenset(load_words(FRENCH_WORDS_PATH)),
        frozenset(load_words(QUESTION_WORDS_PATH)),
    )
    if path is not None:
        publish(path, orjson.dumps(_stored(lexicon, key)))
        with contextlib.suppress(OSError):  # the analyses of other files or code
            for old in path.parent.glob("*.json"):
                if old != path:
                    old.unlink(missing_ok=True)
    return lexicon


def _key(sources: list[Path]) -> str | None:
    """A hash of the files and of the code that analyses them (None: a file is missing,
    nothing is kept)."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{_FORMAT}\0{analysis.ANALYSIS_VERSION}\0".encode())
    try:
        # the analysis folds text with judge.rules.text's functions
        code = [here / "lexicon.py", here / "analysis.py", here.parent / "rules" / "text.py"]
        for path in [*sources, *code]:
            data = path.read_bytes()
            h.update(f"{len(data)}\0".encode())
            h.update(data)
    except OSError:
        return None
    return h.hexdigest()


def _stored(lexicon: Lexicon, key: str) -> dict[str, Any]:
    g = lexicon.glossary
    return {
        "format": _FORMAT,
        "key": key,
        "terms": [[t.fr, t.en, t.source, t.old, t.related, t.frames] for t in g.terms],
        "variants": [[v.term, v.language, v.text, v.keys, v.content, v.old] for v in g.variants],
        "words": sorted(g.words),
        "by_language": {lang: sorted(words) for lang, words in g.by_language.items()},
        "starts": [[*k, v] for k, v in g._starts.items()],
        "display": g.display,
        "form_languages": {f: sorted(langs) for f, langs in g._form_languages.items()},
        "french": sorted(lexicon.french),
        "question_words": sorted(lexicon.question_words),
    }


def _restore(data: bytes, key: str) -> Lexicon | None:
    """What `_stored` wrote, every value of its expected type; None otherwise."""
    try:
        d = orjson.loads(data)
        if type(d) is not dict or d.get("format") != _FORMAT or d.get("key") != key:
            return None
        terms = [
            GlossaryTerm(_strs(fr), _strs(en), _str(src), _strs(old), _strs(rel), _bool(fr_))
            for fr, en, src, old, rel, fr_ in d["terms"]
        ]
        variants = [
            _Variant(_int(t, len(terms)), _lang(lang), _str(text), _strs(k), _strs(c), _bool(o))
            for t, lang, text, k, c, o in d["variants"]
        ]
        starts = {
            (_str(lang), _str(kind), _str(first)): [_int(n, len(variants)) for n in found]
            for lang, kind, first, found in d["starts"]
        }
        display = d["display"]
        if type(display) is not dict or not all(type(v) is str for v in display.values()):
            return None
        if not variants:
            return None  # an empty analysis is never kept: `Glossary` would redo it
        glossary = Glossary(
            terms,
            variants,
            set(_strs(d["words"])),
            {_str(lang): set(_strs(words)) for lang, words in d["by_language"].items()},
            starts,
            display,
            {_str(f): {_lang(x) for x in langs} for f, langs in d["form_languages"].items()},
        )
        return Lexicon(
            glossary, frozenset(_strs(d["french"])), frozenset(_strs(d["question_words"]))
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def _str(x: object) -> str:
    if type(x) is not str:
        raise TypeError("texte attendu")
    return x


def _strs(x: object) -> tuple[str, ...]:
    if type(x) is not list or not all(type(v) is str for v in x):
        raise TypeError("liste de textes attendue")
    return tuple(x)


def _bool(x: object) -> bool:
    if type(x) is not bool:
        raise TypeError("booléen attendu")
    return x


def _int(x: object, bound: int) -> int:
    if type(x) is not int or not 0 <= x < bound:
        raise ValueError("numéro hors limites")
    return x


def _lang(x: object) -> AnalyzerLanguage:
    if x == "fr":
        return "fr"
    if x == "en":
        return "en"
    raise ValueError("langue inconnue")
