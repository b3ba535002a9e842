"""Corpus: the editions, their quality report, and importing a document.

An import writes the store atomically (`Judge.ingest`), then opens the Judge of the new
generation while every other session keeps reading the previous one (ui.resources.rebuild).
Importing and removing need the admin secret (ui.admin): without one configured, the page is
read-only and shows no control that writes."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import streamlit as st

from judge import LAYOUTS, MAX_BYTES, EditionView, Judge, JudgeError, Layout, ingest_many
from judge.fr import LAYOUT, NUMBERING, SHIPPED
from ui import admin, links, resources
from ui.render import md, redact, say

MAX_MB = MAX_BYTES // (1024 * 1024)
FLASH = "corpus-flash"
FLASH_ERRORS = "corpus-flash-errors"
REPLACE_LABEL = "Remplacer l'édition si elle existe déjà"
# The library speaks to the command line; this page has a checkbox instead.
_CLI_HINTS = (
    ("ajoutez --replace", f"cochez « {REPLACE_LABEL} »"),
    ("avec judge ingest --replace", f"en cochant « {REPLACE_LABEL} »"),
)
READ_ONLY = (
    "Application en lecture seule : l'import et le retrait d'éditions sont désactivés. "
    "Pour les activer, un administrateur définit un jeton secret dans la variable "
    f"d'environnement {admin.ENV} (ou `{admin.SECRET}` dans .streamlit/secrets.toml) "
    "avant de lancer l'application, puis le saisit ici."
)
WRONG_TOKEN = "Jeton d'administration incorrect : l'import et le retrait restent verrouillés."


def _editions_table(editions: tuple[EditionView, ...]) -> None:
    rows = [
        {
            "Identifiant": ed.id,
            "Libellé": ed.label,
            "Langue": ed.language,
            "Époque": ed.era or ed.date,
            "Numérotation": NUMBERING.get(ed.numbering, ed.numbering),
            "Règles": ed.rules,  # the count `judge editions` shows
            "Origine": SHIPPED[ed.shipped],
        }
        for ed in editions
    ]
    st.dataframe(rows, hide_index=True, width="stretch")


def _numbers(label: str, items: list[str], edition: str, as_links: bool = True) -> None:
    if not items:
        return
    st.markdown(f"**{md(label)}** ({len(items)})")
    if as_links:
        with st.container(horizontal=True, gap="small"):
            for n in items[:40]:
                links.rule_link(n, edition)
        if len(items) > 40:
            st.caption(f"… et {len(items) - 40} autres")
    else:
        for item in items[:40]:
            st.markdown("- " + md(item))


def _quality(q: dict[str, Any]) -> None:
    """One edition's quality report (`Judge.quality_of`, the `judge check --json` shape)."""
    refs = q["references"]
    edition = q["edition"]
    cols = st.columns(4)
    cols[0].metric("Règles analysées", q["rules_parsed"])
    cols[1].metric("Sections", q["sections"])
    cols[2].metric("Titres seuls", q["title_only"])
    cols[3].metric("Entrées de glossaire", q["glossary_entries"])
    st.markdown(
        f"**Références** : {refs.get('resolved', 0)} présentes, "
        f"{refs.get('title_only', 0)} vers un titre seul, "
        f"{refs.get('missing', 0)} absentes du corpus"
    )
    _numbers("Numéros déduits de la position", q["inferred"], edition)
    _numbers("Doublons renumérotés", q["duplicates_fixed"], edition)
    _numbers("Lacunes", q["gaps"], edition, as_links=False)
    _numbers("Paragraphes en anglais", q["english_paragraphs"], edition)
    _numbers("Numéros sans texte", q["empty_rules"], edition)
    _numbers("Texte écarté (hors règles)", q["not_rules"], edition, as_links=False)
    if q["sources"]:
        st.markdown("**Sources**")
        st.dataframe(
            [
                {
                    "Fichier": redact(s.get("file", "")),
                    "Nom d'origine": redact(s.get("original", "")),
                    "Disposition": LAYOUT.get(s.get("layout", ""), s.get("layout", "")),
                }
                for s in q["sources"]
            ],
            hide_index=True,
            width="stretch",
        )


def _safe_name(name: str) -> str:
    base = Path(name.replace("\\", "/")).name
    base = re.sub(r"[^\w.\- ]", "_", base).strip(" .") or "document.txt"
    return base[:120]


def _ingest(upload: object, edition_id: str, layout: str, replace: bool) -> None:
    data: bytes = upload.getvalue()  # type: ignore[attr-defined]
    name = _safe_name(str(upload.name))  # type: ignore[attr-defined]
    if len(data) > MAX_BYTES:
        st.error(md(f"« {name} » est trop gros ({len(data) // 1024} Kio) : limite {MAX_MB} Mio."))
        return
    if not data.strip():
        st.error(md(f"« {name} » est vide : rien à importer."))
        return
    progress = st.progress(0.0, text="Lecture et analyse du document…")
    with tempfile.TemporaryDirectory(prefix="judge-upload-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            result = resources.judge().ingest(
                path,
                edition_id.strip() or None,
                None if layout == "auto" else _layout(layout),
                replace=replace,
            )
        except JudgeError as exc:
            progress.empty()
            st.error(say(_for_page(_without_dir(exc.message, tmp))), icon=":material/error:")
            return
        except Exception as exc:  # the store is atomic: whatever failed, nothing was written
            progress.empty()
            st.error(
                md(
                    f"Import impossible : erreur inattendue ({type(exc).__name__}). "
                    "Le corpus n'a pas changé."
                ),
                icon=":material/error:",
            )
            return
    progress.progress(0.4, text="Édition enregistrée ; construction du nouvel index…")
    resources.rebuild(lambda f, m: progress.progress(0.4 + 0.6 * f, text=m))
    verb = "remplacée" if result.replaced else "importée"
    st.session_state[FLASH] = (
        f"Édition {result.edition} {verb} : {result.rules} règles, "
        f"{result.glossary} entrées de glossaire."
    )
    st.rerun()


def _checked(upload: object) -> tuple[str, bytes] | str:
    """The upload's safe name and bytes, or why it cannot be imported (French)."""
    data: bytes = upload.getvalue()  # type: ignore[attr-defined]
    name = _safe_name(str(upload.name))  # type: ignore[attr-defined]
    if len(data) > MAX_BYTES:
        return f"« {name} » est trop gros ({len(data) // 1024} Kio) : limite {MAX_MB} Mio."
    if not data.strip():
        return f"« {name} » est vide : rien à importer."
    return name, data


def _ingest_several(uploads: list[object], layout: str, replace: bool) -> None:
    """Several documents at once (`ingest_many`): one edition each, named by its date; one
    that fails is reported and does not stop the others."""
    problems: list[str] = []
    progress = st.progress(0.0, text="Lecture et analyse des documents…")
    with tempfile.TemporaryDirectory(prefix="judge-upload-") as tmp:
        paths: list[Path] = []
        for upload in uploads:
            checked = _checked(upload)
            if isinstance(checked, str):
                problems.append(checked)
                continue
            name, data = checked
            path = Path(tmp) / name
            if path.exists():
                problems.append(f"« {name} » est envoyé deux fois : importé une seule fois.")
                continue
            path.write_bytes(data)
            paths.append(path)

        def step(i: int, n: int, file: str) -> None:
            progress.progress(0.4 * (i - 1) / n, text=f"Document {i} sur {n} : {redact(file)}")

        try:
            outcomes = ingest_many(
                paths,
                replace=replace,
                progress=step,
                layout=None if layout == "auto" else _layout(layout),
            )
        except Exception as exc:  # the store is atomic: whatever failed, nothing was written
            progress.empty()
            st.error(
                md(f"Import impossible : erreur inattendue ({type(exc).__name__})."),
                icon=":material/error:",
            )
            return
        for o in outcomes:
            if not o.ok:
                reason = _for_page(_without_dir(o.error or "", tmp))
                named = Path(o.file).name in reason
                problems.append(reason if named else f"{Path(o.file).name} : {reason}")
    done = [o for o in outcomes if o.ok]
    if not done:
        progress.empty()
        for problem in problems:
            st.error(say(problem), icon=":material/error:")
        return
    progress.progress(0.4, text="Éditions enregistrées ; construction du nouvel index…")
    resources.rebuild(lambda f, m: progress.progress(0.4 + 0.6 * f, text=m))
    listed = ", ".join(
        f"{o.edition}{' (remplacée)' if o.replaced else ''} : {o.rules} règles" for o in done
    )
    st.session_state[FLASH] = (
        f"{len(done)} édition(s) importée(s) sur {len(uploads)} document(s) : {listed}."
    )
    st.session_state[FLASH_ERRORS] = problems
    st.rerun()


def _layout(value: str) -> Layout:
    if value not in LAYOUTS:
        raise ValueError(value)
    return value  # type: ignore[return-value]


def _without_dir(message: str, folder: str) -> str:
    """Library messages name the temporary copy: show the name the user uploaded."""
    return message.replace(folder.rstrip("/") + "/", "").replace(folder, "")


def _for_page(message: str) -> str:
    """A library message as this page says it: no server path, the checkbox for the flag."""
    text = redact(message)
    for cli, page in _CLI_HINTS:
        text = text.replace(cli, page)
    return text


def _import_form() -> None:
    st.subheader("Importer un document")
    st.caption(
        "Un ou plusieurs textes des règles complètes (.txt ou .html, UTF-8, UTF-16 ou "
        f"Windows-1252), {MAX_MB} Mio au plus chacun ; à plusieurs, chaque édition est nommée "
        "d'après la date de son document. L'application continue de servir l'index actuel pendant "
        "la construction du nouveau."
    )
    with st.form("corpus-import"):
        uploads = st.file_uploader(
            "Documents de règles (un ou plusieurs)",
            type=["txt", "htm", "html"],
            max_upload_size=MAX_MB,
            accept_multiple_files=True,
            # Streamlit draws the box's « Upload » and « … per file » in English, untranslatable.
            help=f"« Upload » : choisir un ou plusieurs fichiers, {MAX_MB} Mio au plus chacun.",
        )
        left, mid = st.columns(2)
        edition_id = left.text_input(
            "Identifiant de l'édition (facultatif)",
            placeholder="en-2011-09-30 (sinon déduit de la date du document)",
        )
        layout = mid.selectbox(
            "Disposition",
            ["auto", *LAYOUTS],
            format_func=lambda x: LAYOUT.get(str(x), str(x)),
            placeholder="Choisir…",
        )
        replace = st.checkbox(REPLACE_LABEL)
        submitted = st.form_submit_button("Importer", icon=":material/upload_file:")
    if submitted:
        if not admin.unlocked():  # checked again when writing, not only when drawing
            st.error(WRONG_TOKEN)
        elif not uploads:
            st.error("Choisissez d'abord un fichier à importer.")
        elif len(uploads) == 1:
            _ingest(uploads[0], edition_id, str(layout or "auto"), replace)
        elif edition_id.strip():
            st.error(
                "L'identifiant ne vaut que pour un seul fichier : pour plusieurs documents, "
                "chaque édition est nommée d'après la date de son document."
            )
        else:
            _ingest_several(list(uploads), str(layout or "auto"), replace)


def _remove(judge: Judge) -> None:
    """A remove button per imported edition, each behind its own confirmation."""
    imported = [ed for ed in judge.editions() if not ed.shipped]
    if not imported:
        return
    st.subheader("Retirer une édition importée")
    for ed in imported:
        with st.form(f"corpus-remove-{ed.id}"):
            st.markdown(md(f"**{ed.id}** — {ed.label} ({ed.era or ed.date}, {ed.rules} règles)"))
            sure = st.checkbox(f"Je confirme : retirer {ed.id} du corpus")
            go = st.form_submit_button(f"Retirer {ed.id}", icon=":material/delete:")
        if go:
            _remove_one(judge, ed.id, sure)


def _remove_one(judge: Judge, eid: str, sure: bool) -> None:
    if not admin.unlocked():
        st.error(WRONG_TOKEN)
        return
    if not sure:
        st.warning("Cochez la confirmation pour retirer l'édition.")
        return
    try:
        judge.remove(eid)
    except JudgeError as exc:
        st.error(say(_for_page(exc.message)))
        return
    resources.rebuild()
    st.session_state[FLASH] = f"Édition {eid} retirée."
    st.rerun()


def _admin() -> bool:
    """The import and remove controls are for administrators: True when this session may
    see them. Read-only (and says so) when no secret is configured."""
    if admin.configured() is None:
        st.subheader("Importer ou retirer une édition")
        st.info(md(READ_ONLY), icon=":material/lock:")
        return False
    if admin.unlocked():
        if st.button("Verrouiller l'import et le retrait", icon=":material/lock:"):
            admin.lock()
            st.rerun()
        return True
    st.subheader("Importer ou retirer une édition")
    with st.form("corpus-admin"):
        typed = st.text_input("Jeton d'administration", type="password")
        go = st.form_submit_button("Déverrouiller", icon=":material/lock_open:")
    if go:
        if admin.unlock(typed):
            st.rerun()
        st.error(WRONG_TOKEN, icon=":material/lock:")
    return False


def main() -> None:
    st.title("Corpus")
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.success(say(flash), icon=":material/check_circle:")
    for problem in st.session_state.pop(FLASH_ERRORS, None) or ():
        st.error(say(problem), icon=":material/error:")
    judge = resources.judge()
    for warning in judge.warnings:  # damaged imported editions, left out of the index
        st.warning(say(warning), icon=":material/warning:")
    editions = judge.editions()
    st.subheader("Éditions")
    _editions_table(editions)
    imported = sum(1 for ed in editions if not ed.shipped)
    kept = " (conservées sur le serveur)" if imported else ""
    st.caption(
        f"{len(editions) - imported} éditions livrées avec le corpus, "
        f"{imported} importée{'s' if imported > 1 else ''}{kept}."
    )
    st.subheader("Rapport de qualité")
    for n, ed in enumerate(editions):
        with st.expander(md(f"{ed.id} — {ed.label}"), expanded=n == 0):
            _quality(judge.quality_of(ed.id))
    if _admin():
        _import_form()
        _remove(judge)


main()
