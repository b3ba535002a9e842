"""The user's store of ingested editions, under $JUDGE_HOME (else the platform's
data folder). Every write is atomic: a new edition is written into a temporary
folder beside its final place, then renamed; a failure leaves the store as it was."""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from judge.rules.decode import decode_bytes, read_document
from judge.rules.edition import EditionMeta, build_edition
from judge.rules.errors import DocumentError, JudgeError
from judge.rules.layouts import parse_text
from judge.rules.layouts.detect import detect_layout
from judge.rules.model import LAYOUTS, Edition, Layout, SourceFile

EDITION_ID = re.compile(r"^[a-z]{2}-[a-z0-9][a-z0-9-]{1,40}$")
MAX_BYTES = 20 * 1024 * 1024


class StoreError(JudgeError):
    pass


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
    out (and described in `warnings`) so that it cannot block the others."""
    root = editions_dir(home)
    if not root.is_dir():
        return []
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


@dataclass(frozen=True)
class IngestResult:
    edition: Edition
    folder: Path
    replaced: bool
    warnings: tuple[str, ...] = ()


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


def ingest(
    path: Path,
    edition_id: str | None = None,
    layout: Layout | None = None,
    replace: bool = False,
    home: Path | None = None,
    reserved: frozenset[str] = frozenset(),
) -> IngestResult:
    """Parse `path` and add it to the store. Nothing is written unless it parses."""
    if layout is not None and layout not in LAYOUTS:
        raise StoreError(f"Format inconnu : « {layout} » (formats : {', '.join(LAYOUTS)})")
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    if size > MAX_BYTES:
        raise DocumentError(
            f"{path} : fichier trop gros ({size} octets, limite {MAX_BYTES})", file=str(path)
        )
    text = read_document(path)
    warnings: list[str] = []
    detected = detect_layout(text)
    if layout is not None and layout != detected:
        warnings.append(
            f"format imposé « {layout} » alors que le document ressemble à « {detected} » : "
            "vérifiez le résultat avec judge check"
        )
    doc = parse_text(text, path.name, layout or detected)
    language = doc.language or "en"
    eid = edition_id or _derive_id(language, doc.date, str(path))
    if not EDITION_ID.match(eid):
        raise StoreError(
            f"Identifiant d'édition invalide : « {eid} » (attendu : langue-date, "
            "par exemple en-2011-09-30)"
        )
    if eid in reserved:
        raise StoreError(
            f"L'édition {eid} est livrée avec le corpus : choisissez un autre identifiant"
        )
    root = editions_dir(home)
    final = root / eid
    if final.exists() and not replace:
        raise StoreError(
            f"L'édition {eid} existe déjà ({final}) : ajoutez --replace pour la remplacer"
        )
    year = int(doc.date[:4]) if doc.date else 0
    suffix = Path(path.name).suffix or ".txt"
    meta = EditionMeta(
        id=eid,
        label=f"Règles importées ({doc.date or 'sans date'}, {path.name})",
        language=language,
        date=doc.date or "",
        era=doc.date[:4] if doc.date else "",
        numbering="modern" if year >= 2009 or not year else "pre2009",
        order=year,
        sources=(SourceFile(f"document{suffix}", path.name, doc.layout),),
        shipped=False,
    )
    edition = build_edition(meta, [doc])
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{eid}-", dir=root))
    old: Path | None = None
    try:
        _write_edition(tmp, meta, path.read_bytes())
        # Check what was written reads back the same before it goes live.
        decode_bytes((tmp / meta.sources[0].file).read_bytes(), str(path))
        if final.exists():
            old = root / f".old-{eid}-{os.getpid()}"
            os.replace(final, old)
        os.replace(tmp, final)
    except BaseException:
        if old is not None and not final.exists():
            os.replace(old, final)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return IngestResult(edition, final, replaced=old is not None, warnings=tuple(warnings))


def _write_edition(folder: Path, meta: EditionMeta, data: bytes) -> None:
    src = meta.sources[0]
    (folder / src.file).write_bytes(data)
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
    (folder / "edition.json").write_text(json.dumps(info, ensure_ascii=False, indent=2), "utf-8")


def remove(edition_id: str, home: Path | None = None) -> None:
    folder = editions_dir(home) / edition_id
    if not folder.is_dir():
        raise StoreError(f"Aucune édition importée « {edition_id} »")
    trash = folder.with_name(f".del-{edition_id}-{os.getpid()}")
    os.replace(folder, trash)
    shutil.rmtree(trash, ignore_errors=True)
