"""Corpus: the editions, their quality report, and importing a document.

An import writes the store atomically (judge.rules.store.ingest), then builds the new index
while every other session keeps reading the previous one (ui.resources.rebuild)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import streamlit as st

from judge.rules import store
from judge.rules.errors import JudgeError
from judge.rules.index import QualityReport, RuleIndex
from judge.rules.model import LAYOUTS, Layout
from ui import links, resources
from ui.render import md

MAX_MB = store.MAX_BYTES // (1024 * 1024)
FLASH = "corpus-flash"
LAYOUT_FR = {
    "auto": "Détection automatique",
    "official": "Texte officiel (Wizards)",
    "html": "Page HTML",
    "scraped": "Texte copié d'un site",
    "glued_2011": "Texte 2011 (règles collées)",
    "inline_pre2009": "Ancienne numérotation (avant 2009)",
}
NUMBERING_FR = {"modern": "moderne", "pre2009": "avant 2009"}


def _editions_table(index: RuleIndex) -> None:
    rows = [
        {
            "Identifiant": ed.id,
            "Libellé": ed.label,
            "Langue": ed.language,
            "Époque": ed.era or ed.date,
            "Numérotation": NUMBERING_FR.get(ed.numbering, ed.numbering),
            "Règles": sum(1 for r in ed.rules.values() if not r.title_only),
            "Origine": "livrée" if ed.shipped else "importée",
        }
        for ed in index.editions
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


def _quality(index: RuleIndex, q: QualityReport) -> None:
    refs = q.references
    cols = st.columns(4)
    cols[0].metric("Règles analysées", q.rules_parsed)
    cols[1].metric("Sections", q.sections)
    cols[2].metric("Titres seuls", q.title_only)
    cols[3].metric("Entrées de glossaire", q.glossary_entries)
    st.markdown(
        f"**Références** : {refs.get('resolved', 0)} présentes, "
        f"{refs.get('title_only', 0)} vers un titre seul, "
        f"{refs.get('missing', 0)} absentes du corpus"
    )
    _numbers("Numéros déduits de la position", q.inferred, q.edition)
    _numbers("Doublons renumérotés", q.duplicates_fixed, q.edition)
    _numbers("Lacunes", q.gaps, q.edition, as_links=False)
    _numbers("Paragraphes en anglais", q.english_paragraphs, q.edition)
    _numbers("Numéros sans texte", q.empty_rules, q.edition)
    _numbers("Texte écarté (hors règles)", q.not_rules, q.edition, as_links=False)
    if q.sources:
        st.markdown("**Sources**")
        st.dataframe(
            [
                {
                    "Fichier": s.get("file", ""),
                    "Nom d'origine": s.get("original", ""),
                    "Disposition": LAYOUT_FR.get(s.get("layout", ""), s.get("layout", "")),
                }
                for s in q.sources
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
    if len(data) > store.MAX_BYTES:
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
            result = store.ingest(
                path,
                edition_id.strip() or None,
                None if layout == "auto" else _layout(layout),
                replace=replace,
                reserved=resources.shipped_ids(),
            )
        except JudgeError as exc:
            progress.empty()
            st.error(md(_without_dir(exc.message, tmp)), icon=":material/error:")
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
    ed = result.edition
    count = sum(1 for r in ed.rules.values() if not r.title_only)
    verb = "remplacée" if result.replaced else "importée"
    st.session_state[FLASH] = (
        f"Édition {ed.id} {verb} : {count} règles, {len(ed.glossary)} entrées de glossaire."
    )
    st.rerun()


def _layout(value: str) -> Layout:
    if value not in LAYOUTS:
        raise ValueError(value)
    return value  # type: ignore[return-value]


def _without_dir(message: str, folder: str) -> str:
    """Library messages name the temporary copy: show the name the user uploaded."""
    return message.replace(folder.rstrip("/") + "/", "").replace(folder, "")


def _import_form() -> None:
    st.subheader("Importer un document")
    st.caption(
        "Un texte des règles complètes (.txt ou .html, UTF-8, UTF-16 ou Windows-1252), "
        f"{MAX_MB} Mio au plus. L'application continue de servir l'index actuel pendant "
        "la construction du nouveau."
    )
    with st.form("corpus-import"):
        upload = st.file_uploader(
            "Document de règles", type=["txt", "htm", "html"], max_upload_size=MAX_MB
        )
        left, mid = st.columns(2)
        edition_id = left.text_input(
            "Identifiant de l'édition (facultatif)",
            placeholder="en-2011-09-30 (sinon déduit de la date du document)",
        )
        layout = mid.selectbox(
            "Disposition",
            ["auto", *LAYOUTS],
            format_func=lambda x: LAYOUT_FR.get(str(x), str(x)),
        )
        replace = st.checkbox("Remplacer l'édition si elle existe déjà")
        submitted = st.form_submit_button("Importer", icon=":material/upload_file:")
    if submitted:
        if upload is None:
            st.error("Choisissez d'abord un fichier à importer.")
        else:
            _ingest(upload, edition_id, str(layout or "auto"), replace)


def _remove(index: RuleIndex) -> None:
    imported = [ed.id for ed in index.editions if not ed.shipped]
    if not imported:
        return
    st.subheader("Retirer une édition importée")
    with st.form("corpus-remove"):
        eid = st.selectbox("Édition", imported)
        sure = st.checkbox("Je confirme : retirer cette édition du corpus")
        go = st.form_submit_button("Retirer", icon=":material/delete:")
    if go:
        if not sure:
            st.warning("Cochez la confirmation pour retirer l'édition.")
            return
        try:
            store.remove(str(eid))
        except JudgeError as exc:
            st.error(md(exc.message))
            return
        resources.rebuild()
        st.session_state[FLASH] = f"Édition {eid} retirée."
        st.rerun()


def main() -> None:
    st.title("Corpus")
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.success(md(flash), icon=":material/check_circle:")
    index = resources.rule_index()
    for warning in index.warnings:  # damaged imported editions, left out of the index
        st.warning(md(warning), icon=":material/warning:")
    st.subheader("Éditions")
    _editions_table(index)
    st.caption(md(f"Éditions importées : {store.editions_dir()}"))
    st.subheader("Rapport de qualité")
    for ed in index.editions:
        with st.expander(md(f"{ed.id} — {ed.label}"), expanded=ed is index.editions[0]):
            _quality(index, index.quality(ed.id))
    _import_form()
    _remove(index)


main()
