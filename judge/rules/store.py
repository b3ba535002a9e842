"""The user's store of ingested editions, under $JUDGE_HOME (else the platform's
data folder): locked, journaled, atomic.

- One writer at a time: `editions/.lock` is held (`flock`) while a writer checks and changes
  the store; a second one waits up to LOCK_TIMEOUT seconds, then gets a French error.
- A new edition is written into `.tmp-<id>-<pid>-…` beside its final place, then renamed.
  A replacement first writes `.journal-<id>.json` (naming the final, old and temporary
  folders), moves the current edition aside (`.old-<id>-<pid>`) and renames the new one in.
- Every open of the store (`stored_editions`, `ingest`, `remove`) recovers from a writer that
  died half-way: an edition moved aside and never replaced is put back, a replacement that
  landed loses its old copy, and stale temporary folders and cache files are swept.
- `check_store` reports whatever is still inconsistent (`judge check`).
The bytes stored are the bytes that were parsed: the document is read once."""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import platformdirs

from judge.rules.decode import MAX_BYTES, decode_bytes, display_name, read_document_bytes
from judge.rules.edition import EditionMeta, build_edition
from judge.rules.errors import JudgeError
from judge.rules.model import LAYOUTS, Edition, Layout, ParsedDocument, SourceFile

__all__ = ["MAX_BYTES", "StoreError"]

Numbering = Literal["modern", "pre2009"]

EDITION_ID = re.compile(r"[a-z]{2}-[a-z0-9][a-z0-9-]{1,40}")  # always with fullmatch
LOCK_TIMEOUT = 30.0  # seconds a writer waits for another one
STALE_AFTER = 60.0  # seconds after which a leftover of a live process is swept anyway

# Test hook: JUDGE_TEST_CRASH_AT=<step> ends the process abruptly (as `kill -9` would) at that
# step of a write, so that tests can check the next command recovers. Never set otherwise.
CRASH_STEPS = (
    "after-tmp-write",
    "after-journal",
    "after-old-rename",
    "after-new-rename",
    "after-old-removed",
    "after-del-rename",
)

_OS_PHRASES = {
    errno.EROFS: "dossier en lecture seule",
    errno.ENOSPC: "disque plein",
    errno.EDQUOT: "quota disque dépassé",
    errno.ENOTDIR: "n'est pas un dossier",
    errno.EACCES: "accès refusé (permissions)",
    errno.EPERM: "opération non permise",
    errno.ENOENT: "introuvable, ou impossible à créer à cet endroit",
    errno.EEXIST: "existe déjà",
    errno.EISDIR: "est un dossier",
    errno.ENAMETOOLONG: "nom trop long",
    errno.ELOOP: "trop de liens symboliques",
    errno.EIO: "erreur d'entrée-sortie",
    errno.EMFILE: "trop de fichiers ouverts",
    errno.ENOTEMPTY: "dossier non vide",
    errno.EXDEV: "sur un autre système de fichiers",
}


class StoreError(JudgeError):
    @classmethod
    def from_os_error(cls, exc: OSError, action: str = "", where: Path | None = None) -> StoreError:
        """`ACTION : PATH : dossier en lecture seule` — the path and the problem, in French.
        `where` names the place when the system names none (a full disk on write)."""
        phrase = _OS_PHRASES.get(exc.errno or 0) or exc.strerror or str(exc) or type(exc).__name__
        where = exc.filename if exc.filename is not None else where
        if exc.errno == errno.ENOTDIR and where is not None:
            where = _not_a_directory(Path(os.fsdecode(where)))
        head = f"{action} : " if action else ""
        if where is None:
            return cls(f"{head}{phrase}")
        return cls(f"{head}{display_name(os.fsdecode(where))} : {phrase}")


def _not_a_directory(path: Path) -> Path:
    """The first part of `path` that exists and is not a folder (what ENOTDIR blames)."""
    for part in (*reversed(path.parents), path):
        if part.exists() and not part.is_dir():
            return part
    return path


def home_dir(home: Path | None = None) -> Path:
    if home is not None:
        return home
    env = os.environ.get("JUDGE_HOME")
    return Path(env) if env else Path(platformdirs.user_data_dir("judge"))


def cache_dir(home: Path | None = None) -> Path:
    if home is not None:
        return home / "cache"
    env = os.environ.get("JUDGE_HOME")
    return Path(env) / "cache" if env else Path(platformdirs.user_cache_dir("judge"))


def editions_dir(home: Path | None = None) -> Path:
    return home_dir(home) / "editions"


def _meta_from_json(data: dict[str, object], folder: Path) -> EditionMeta:
    src = data["source"]
    assert isinstance(src, dict)
    return EditionMeta(
        id=str(data["id"]),
        label=str(data["label"]),
        language=data["language"],  # type: ignore[arg-type]
        date=str(data.get("date", "")),
        era=str(data.get("era", "")),
        numbering=data["numbering"],  # type: ignore[arg-type]
        order=int(str(data["order"])),
        sources=(SourceFile(str(src["file"]), str(src["original"]), src["layout"]),),
        shipped=False,
    )


def stored_editions(
    home: Path | None = None, warnings: list[str] | None = None
) -> list[tuple[EditionMeta, Path]]:
    """Ingested editions, each with the folder its file lives in. A damaged one is left
    out (and described in `warnings`) so that it cannot block the others. A write left
    half-done is recovered first when no other writer holds the store."""
    root = editions_dir(home)
    if not root.is_dir():
        return []
    _recover_if_free(root)
    out = []
    for folder in sorted(root.iterdir()):
        meta_path = folder / "edition.json"
        if folder.name.startswith(".") or not meta_path.is_file():
            continue  # temporary or half-removed folders are never read
        try:
            data = json.loads(meta_path.read_text(encoding="utf-8"))
            meta = _meta_from_json(data, folder)
            if not (folder / meta.sources[0].file).is_file():
                raise FileNotFoundError(meta.sources[0].file)
            out.append((meta, folder))
        except json.JSONDecodeError as exc:
            _warn(
                warnings,
                f"{meta_path} n'est pas un JSON valide (ligne {exc.lineno}, colonne {exc.colno})",
            )
        except KeyError as exc:
            _warn(warnings, f"{meta_path} : champ obligatoire {exc} absent")
        except FileNotFoundError as exc:
            _warn(warnings, f"{folder} : document {exc} absent")
        except (ValueError, TypeError, AssertionError, OSError):
            _warn(warnings, f"{meta_path} : description de l'édition invalide")
    return out


def _warn(warnings: list[str] | None, message: str) -> None:
    if warnings is not None:
        warnings.append(
            f"Édition importée ignorée : {message}. Réimportez-la avec judge ingest --replace."
        )


# --- the lock, the journal, recovery -------------------------------------------------------


def _crash_point(step: str) -> None:
    """The test hook (see CRASH_STEPS): die here, without cleaning up, when asked to."""
    if os.environ.get("JUDGE_TEST_CRASH_AT") == step:
        os._exit(137)


@contextlib.contextmanager
def _writer_lock(root: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold `root/.lock` for writing, waiting at most `timeout` (default LOCK_TIMEOUT)."""
    lock = root / ".lock"
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise StoreError.from_os_error(exc, "Stockage des éditions inutilisable") from None
    try:
        wait = LOCK_TIMEOUT if timeout is None else timeout
        deadline = time.monotonic() + wait
        while not _try_flock(fd):
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"{lock} : une autre importation est en cours (verrou tenu depuis plus de "
                    f"{wait:g} s) ; réessayez quand elle sera terminée"
                )
            time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # releases the lock


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _recover_if_free(root: Path) -> None:
    """A reader's recovery: only when something is left over and no writer is at work;
    a store it cannot write (read-only, full) is read as it is."""
    try:
        if not any(_leftover(p.name) for p in root.iterdir()):
            return
        fd = os.open(root / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return
    try:
        if _try_flock(fd):
            recover(root)
    except OSError:
        pass  # `judge check` reports what is left
    finally:
        os.close(fd)


_JOURNAL_RE = re.compile(r"\.journal-(?P<id>.+)\.json")
_MOVED_RE = re.compile(r"\.(?P<kind>old|del)-(?P<id>.+)-(?P<pid>\d+)")
_TMP_RE = re.compile(r"\.tmp-(?P<id>.+?)(?:-(?P<pid>\d+))?-(?P<rand>[a-z0-9_]+)")


def _leftover(name: str) -> bool:
    return name.startswith(".") and name != ".lock"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _stale(path: Path, pid: str | None) -> bool:
    """Left by a dead process, or older than STALE_AFTER (a live writer is never swept)."""
    if pid is not None and not _pid_alive(int(pid)):
        return True
    try:
        return time.time() - path.lstat().st_mtime > STALE_AFTER
    except OSError:
        return False


def _remove_tree(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _write_journal(path: Path, entry: dict[str, str]) -> None:
    _write_file(path, json.dumps(entry, ensure_ascii=True).encode("ascii"))


def _finish_journal(root: Path, journal: Path) -> None:
    """Undo or complete the write a journal describes. Its pointers are names inside `root`
    (a journal cannot point elsewhere); the final folder, when present, wins."""
    m = _JOURNAL_RE.fullmatch(journal.name)
    try:
        entry = json.loads(journal.read_text("utf-8"))
    except (OSError, ValueError):
        entry = {}  # torn while written: nothing was renamed yet
    eid = m.group("id") if m else ""
    final = root / eid
    names = [entry.get(k) for k in ("old", "tmp")] if isinstance(entry, dict) else []
    parts = [root / n for n in names if isinstance(n, str) and n.startswith(".") and "/" not in n]
    for part in parts:
        if not part.exists():
            continue
        if part.name.startswith(".old-") and EDITION_ID.fullmatch(eid) and not final.exists():
            os.replace(part, final)  # the replacement never landed: put the old one back
        else:
            _remove_tree(part)
    journal.unlink(missing_ok=True)


def recover(root: Path) -> None:
    """Finish or roll back interrupted writes and sweep stale leftovers. The caller holds the
    store's lock, so any journal belongs to a writer that died."""
    for journal in sorted(root.glob(".journal-*")):
        _finish_journal(root, journal)
    for path in sorted(root.iterdir()):
        name = path.name
        moved = _MOVED_RE.fullmatch(name)
        tmp = _TMP_RE.fullmatch(name)
        if moved and _stale(path, moved.group("pid")):
            final = root / moved.group("id")
            if moved.group("kind") == "old" and not final.exists():
                os.replace(path, final)  # left by an older judge without a journal
            else:
                _remove_tree(path)
        elif tmp and _stale(path, tmp.group("pid")):
            _remove_tree(path)
    _fsync_dir(root)


def _sweep_cache(home: Path | None) -> None:
    """Temporary cache files (`tmp….tmp`) left by a process that died while writing."""
    cache = cache_dir(home)
    try:
        stale = [p for p in cache.rglob("tmp*.tmp") if p.is_file() and _stale(p, None)]
        for path in stale:
            path.unlink(missing_ok=True)
    except OSError:
        pass  # the cache is an optimisation only


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_file(path: Path, data: bytes) -> None:
    """Write and flush to disk (a rename after this never exposes a half-written file)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def check_store(home: Path | None = None) -> list[str]:
    """What is inconsistent in the store, in French (empty when all is well)."""
    root = editions_dir(home)
    if not root.is_dir():
        return []
    problems: list[str] = []
    for path in sorted(root.iterdir()):
        name = path.name
        if name == ".lock":
            continue
        if _JOURNAL_RE.fullmatch(name):
            problems.append(f"{path} : journal d'une importation interrompue non résolu")
        elif name.startswith("."):
            problems.append(f"{path} : reste d'une importation ou d'un retrait interrompu")
        elif not path.is_dir():
            problems.append(f"{path} : fichier inattendu dans le dossier des éditions")
        elif not (path / "edition.json").is_file():
            problems.append(f"{path} : dossier sans edition.json")
    return problems


# --- ingest and remove ---------------------------------------------------------------------


@dataclass(frozen=True)
class IngestResult:
    edition: Edition
    folder: Path
    replaced: bool
    warnings: tuple[str, ...] = ()
    parsed: Parsed | None = None


@dataclass(frozen=True)
class Parsed:
    """An edition as `ingest` parsed it, from a document whose bytes hash to `digest`
    (SHA-256, hex): what opening the index would parse again from the stored copy, the same
    bytes under the same description (`meta`). `load_index` caches it instead when both
    still hold (tests/cli/test_ingest_batch.py checks the two parses agree)."""

    meta: EditionMeta
    digest: str
    edition: Edition


def _derive_id(language: str, date: str | None, file: str) -> str:
    if not date:
        raise StoreError(
            f"{file} : aucune date trouvée dans le document ; indiquez l'identifiant "
            "de l'édition avec --edition (par exemple en-2011-09-30)"
        )
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise StoreError(
            f"{file} : la date trouvée dans le document ({date}) n'existe pas ; indiquez "
            "l'identifiant de l'édition avec --edition"
        ) from None
    return f"{language}-{date}"


def _parse(data: bytes, file: str, layout: Layout | None, warnings: list[str]) -> ParsedDocument:
    # The parsers only when a document is read: the commands that read the store need none.
    from judge.rules.layouts import parse_text
    from judge.rules.layouts.detect import detect_layout

    text = decode_bytes(data, file)
    detected = detect_layout(text)
    if layout is not None and layout != detected:
        warnings.append(
            f"format imposé « {layout} » alors que le document ressemble à « {detected} » : "
            "vérifiez le résultat avec judge check"
        )
    return parse_text(text, Path(file).name, layout or detected)


DOCUMENT_SUFFIXES = (".txt", ".pdf", ".docx", ".html", ".htm")


def document_paths(paths: Sequence[Path]) -> list[tuple[Path, str | None]]:
    """The documents `paths` name, each once: a file as given, a folder's documents
    (DOCUMENT_SUFFIXES, not hidden, not recursive, sorted by name). A folder with none is
    kept with the reason, in French."""
    out: list[tuple[Path, str | None]] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = sorted(
                p
                for p in path.iterdir()
                if p.suffix.lower() in DOCUMENT_SUFFIXES
                and not p.name.startswith(".")
                and p.is_file()
            )
            if not found:
                kinds = ", ".join(DOCUMENT_SUFFIXES)
                out.append((path, f"{display_name(path)} : aucun document de règles ({kinds})"))
        else:
            found = [path]
        for file in found:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                out.append((file, None))
    return out


def _check_id(eid: str, reserved: frozenset[str], batch: Mapping[str, str] | None = None) -> None:
    if not EDITION_ID.fullmatch(eid):
        shown = eid.encode("unicode_escape").decode("ascii")  # a newline shows as \n
        raise StoreError(
            f"Identifiant d'édition invalide : « {shown} » (attendu : langue-date, "
            "par exemple en-2011-09-30)"
        )
    if eid in reserved:
        raise StoreError(
            f"L'édition {eid} est livrée avec le corpus : choisissez un autre identifiant"
        )
    if batch and eid in batch:
        raise StoreError(
            f"L'édition {eid} vient d'être importée depuis {batch[eid]} dans ce même lot : "
            "deux documents de même date ne peuvent pas être importés ensemble"
        )


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ID_DATE = re.compile(r"[a-z]{2}-(\d{4}-\d{2}-\d{2})")
# Section titles that tell the two numberings apart (420/408 before 2009, 704/116-117 after).
_OLD_TITLES = re.compile(r"state-based effects|effets bas[ée]s sur (?:un|l'|l’)", re.I)
_TIMING_TITLES = re.compile(r"timing|chronologie|priorit", re.I)


def _iso_date(*candidates: str | None) -> str:
    """The first candidate that is a real `YYYY-MM-DD` date (else "")."""
    for date in candidates:
        if date and _ISO_DATE.fullmatch(date):
            try:
                datetime.date.fromisoformat(date)
            except ValueError:
                continue
            return date
    return ""


def numbering_of(doc: ParsedDocument, year: int) -> Numbering:
    """`pre2009` (420 state-based effects, 408 timing) or `modern` (704 state-based actions,
    116/117 timing), read from the rules the document holds; the year decides only when
    none of them is there."""
    titles = dict(doc.contents)
    titles.update({r.number: r.title for r in doc.rules if r.title})
    numbers = {r.number.split(".")[0] for r in doc.rules if r.paragraphs}
    old = "420" in numbers or bool(_OLD_TITLES.search(titles.get("420", "")))
    old = old or bool(_TIMING_TITLES.search(titles.get("408", "")))
    new = "704" in numbers or any(_TIMING_TITLES.search(titles.get(n, "")) for n in ("116", "117"))
    if old != new:
        return "pre2009" if old else "modern"
    return "modern" if year >= 2009 or not year else "pre2009"


def _meta_for(eid: str, doc: ParsedDocument, name: str, language: str) -> EditionMeta:
    # An undated document takes the date of an id such as `en-2011-09-30`, when it has one.
    id_date = _ID_DATE.fullmatch(eid)
    date = _iso_date(doc.date, id_date.group(1) if id_date else None)
    year = int(date[:4]) if date else 0
    suffix = Path(name).suffix
    if not re.fullmatch(r"\.[A-Za-z0-9]{1,10}", suffix):
        suffix = ".txt"
    return EditionMeta(
        id=eid,
        label=f"Règles importées ({date or 'sans date'}, {name})",
        language=language,  # type: ignore[arg-type]
        date=date,
        era=date[:4],
        numbering=numbering_of(doc, year),
        order=year,
        sources=(SourceFile(f"document{suffix.lower()}", name, doc.layout),),
        shipped=False,
    )


def ingest(
    path: Path,
    edition_id: str | None = None,
    layout: Layout | None = None,
    replace: bool = False,
    home: Path | None = None,
    reserved: frozenset[str] = frozenset(),
    batch: Mapping[str, str] | None = None,
) -> IngestResult:
    """Parse `path` and add it to the store. The file is read once: the bytes parsed are the
    bytes stored. Nothing is written unless it parses. `batch` (edition id -> file) names
    the editions an `ingest_many` run has just written: a second one of the same id is
    refused rather than replacing the first."""
    if layout is not None and layout not in LAYOUTS:
        raise StoreError(f"Format inconnu : « {layout} » (formats : {', '.join(LAYOUTS)})")
    shown = display_name(path)
    data = read_document_bytes(path, MAX_BYTES)
    warnings: list[str] = []
    doc = _parse(data, shown, layout, warnings)
    language = doc.language or "en"
    eid = edition_id or _derive_id(language, doc.date, shown)
    _check_id(eid, reserved, batch)
    meta = _meta_for(eid, doc, Path(shown).name, language)
    edition = build_edition(meta, [doc])
    root = editions_dir(home)
    with _writer_lock(root):
        try:
            recover(root)
            _sweep_cache(home)
            replaced = _publish(root, meta, data, replace)
        except OSError as exc:
            action = f"Importation de {shown} impossible"
            raise StoreError.from_os_error(exc, action, root) from None
    parsed = Parsed(meta, hashlib.sha256(data).hexdigest(), edition)
    return IngestResult(edition, root / eid, replaced, tuple(warnings), parsed)


def _publish(root: Path, meta: EditionMeta, data: bytes, replace: bool) -> bool:
    """Write the edition under the lock; True when it replaced one."""
    final = root / meta.id
    if final.exists() and not replace:
        raise StoreError(
            f"L'édition {meta.id} existe déjà ({final}) : ajoutez --replace pour la remplacer"
        )
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{meta.id}-{os.getpid()}-", dir=root))
    old = root / f".old-{meta.id}-{os.getpid()}"
    journal = root / f".journal-{meta.id}.json"
    moved = False
    try:
        _write_edition(tmp, meta, data)
        # What was written reads back the same before it goes live.
        if (tmp / meta.sources[0].file).read_bytes() != data:
            raise StoreError(f"{tmp} : le document écrit ne se relit pas à l'identique")
        _crash_point("after-tmp-write")
        _write_journal(journal, {"id": meta.id, "final": meta.id, "old": old.name, "tmp": tmp.name})
        _crash_point("after-journal")
        if final.exists():
            os.replace(final, old)
            moved = True
            _crash_point("after-old-rename")
        os.replace(tmp, final)
        _fsync_dir(root)
        _crash_point("after-new-rename")
    except BaseException:
        _roll_back(final, old if moved else None, tmp, journal)
        raise
    shutil.rmtree(old, ignore_errors=True)
    _crash_point("after-old-removed")
    journal.unlink(missing_ok=True)
    _fsync_dir(root)
    return moved


def _roll_back(final: Path, old: Path | None, tmp: Path, journal: Path) -> None:
    """Put the store back as it was; when that fails too, the journal stays for the next
    open to finish the job."""
    try:
        if old is not None and not final.exists():
            os.replace(old, final)
        shutil.rmtree(tmp, ignore_errors=True)
        journal.unlink(missing_ok=True)
    except OSError:
        pass


def _write_edition(folder: Path, meta: EditionMeta, data: bytes) -> None:
    src = meta.sources[0]
    _write_file(folder / src.file, data)
    info = {
        "id": meta.id,
        "label": meta.label,
        "language": meta.language,
        "date": meta.date,
        "era": meta.era,
        "numbering": meta.numbering,
        "order": meta.order,
        "source": {"file": src.file, "original": src.original, "layout": src.layout},
    }
    _write_file(folder / "edition.json", json.dumps(info, ensure_ascii=False, indent=2).encode())


def remove(edition_id: str, home: Path | None = None) -> None:
    root = editions_dir(home)
    folder = root / edition_id
    if not EDITION_ID.fullmatch(edition_id) or not folder.is_dir():
        raise StoreError(f"Aucune édition importée « {display_name(edition_id)} »")
    with _writer_lock(root):
        try:
            recover(root)
            _sweep_cache(home)
            if not folder.is_dir():
                raise StoreError(f"Aucune édition importée « {edition_id} »")
            trash = root / f".del-{edition_id}-{os.getpid()}"
            os.replace(folder, trash)
            _fsync_dir(root)
            _crash_point("after-del-rename")
            shutil.rmtree(trash)
        except OSError as exc:
            action = f"Retrait de {edition_id} impossible"
            raise StoreError.from_os_error(exc, action, root) from None
