"""Recherche: one box for rule numbers, French phrases (typos, no accents) and English terms.

`?q=contact+mortel&editions=fr-2024` (the root) is a shareable search."""

from __future__ import annotations

from collections import OrderedDict

import streamlit as st

from judge import Hit, Judge, JudgeError, SearchResult
from judge import fr as texts
from judge.fr import HIT_KIND
from ui import links, resources
from ui.render import highlight, md, say

LIMIT = 30
# The library reads the first 300 characters of a question (judge.search's MAX_QUERY_CHARS).
MAX_QUERY = 300
QUERY_KEY = "recherche-q"
TRUNCATED_KEY = "recherche-tronquee"
TRUNCATED = f"Question tronquée à {MAX_QUERY} caractères."
EXAMPLES = ("704.5g", "contact mortel", "deathtouch", "légende", "poison", "bibliotheque vide")


def _group(hits: tuple[Hit, ...]) -> OrderedDict[str, list[Hit]]:
    """One group per rule number, in the order of its best hit; glossary entries apart."""
    groups: OrderedDict[str, list[Hit]] = OrderedDict()
    for hit in hits:
        key = f"glossaire:{hit.rule}" if hit.kind == "glossary" else hit.rule
        groups.setdefault(key, []).append(hit)
    return groups


def _show_group(key: str, hits: list[Hit], first: bool = False) -> None:
    best = hits[0]
    # The first result is keyed: the browser test finds it on a phone's first screen.
    with st.container(border=True, key="recherche-premier" if first else None):
        if best.kind == "glossary":
            st.markdown(f":violet-badge[Glossaire] **{md(best.rule)}**")
        else:
            title = f" — {best.title}" if best.title else ""
            links.rule_link(
                best.rule,
                best.edition,
                label=f"{best.rule}{title}",
                help=best.breadcrumb,
                icon=":material/gavel:",
            )
            if best.breadcrumb:
                st.caption(md(best.breadcrumb))
        for hit in hits:
            badges = f":gray-badge[{md(hit.edition)}]"
            if hit.language == "en":
                badges += " :blue-badge[EN]"
            if hit.kind in ("number", "reference"):
                badges += f" :orange-badge[{HIT_KIND[hit.kind]}]"
            snippet = highlight((s.text, s.match) for s in hit.segments)
            st.markdown(f"{badges} {snippet}")
            if hit.also:
                st.caption(md(texts.also_in_copies(hit.rule, hit.also)))
            for number in hit.see:  # a glossary entry: the rules it sends to
                links.rule_link(
                    number,
                    hit.edition,
                    label=texts.see_rules([number]).capitalize(),
                    icon=":material/gavel:",
                )
            if len(hits) > 1 and hit is not best and hit.kind != "glossary":
                links.rule_link(
                    hit.rule,
                    hit.edition,
                    label=f"Ouvrir dans {hit.edition}",
                    icon=":material/open_in_new:",
                )


def _show(result: SearchResult) -> None:
    if result.corrected:
        st.markdown(f"Résultats pour « **{md(result.corrected)}** »")
    if result.message:
        st.info(say(result.message), icon=":material/info:")
    groups = _group(result.hits)
    # One line (on a phone the first result follows at once): the count, then each
    # expansion once, although the library expands a term once per occurrence.
    parts = [f"Recherche aussi : {e}" for e in dict.fromkeys(result.expansions)]
    if groups:
        n = len(groups)
        parts.insert(0, f"{n} règle{'s' if n > 1 else ''} trouvée{'s' if n > 1 else ''}")
    if parts:
        st.caption(" · ".join(md(p) for p in parts))
    for n, (key, hits) in enumerate(groups.items()):
        _show_group(key, hits, first=n == 0)


def _sections(judge: Judge, edition: str) -> list[str]:
    """The sections (`704`) of `edition` whose rules have their text in the corpus."""
    return sorted(
        {
            top
            for r in judge.edition(edition).rules.values()
            for top in [r.number.split(".")[0]]
            if len(top) == 3 and not r.title_only and r.text.strip()
        }
    )


def _coverage(judge: Judge, found_nothing: bool) -> None:
    """What the corpus holds and how to add the complete rules, instead of an empty page."""
    with st.container(border=True):
        st.markdown(f"**{md(texts.CORPUS_COVERAGE_TITLE)}**")
        if found_nothing:
            st.markdown(md(texts.CORPUS_COVERAGE_EMPTY))
        st.markdown(md(texts.CORPUS_COVERAGE_INTRO))
        lines = []
        for ed in judge.editions():
            sections = _sections(judge, ed.id)
            what = ", ".join(sections) if sections else "aucune section"
            noun = "sections" if len(sections) > 1 else "section"
            lines.append(md(f"{ed.id} ({ed.label}) : {noun} {what}"))
        st.markdown("\n".join(f"- {line}" for line in lines))
        st.markdown(md(texts.CORPUS_COVERAGE_HOWTO))
        with st.container(horizontal=True, gap="small"):
            st.link_button(
                md(texts.RULES_PAGE_LABEL), texts.RULES_PAGE_URL, icon=":material/download:"
            )
            links.page_link(links.CORPUS, texts.CORPUS_PAGE_LABEL, icon=":material/library_books:")


def _useful(result: SearchResult) -> bool:
    """Whether a rule answers: a hit list of glossary entries only says the term exists, not
    what the rules do with it (their section may be absent from the corpus)."""
    return any(hit.kind != "glossary" for hit in result.hits)


def _examples() -> None:
    st.caption("Exemples :")
    with st.container(horizontal=True, gap="small"):
        for q in EXAMPLES:
            links.page_link(links.RECHERCHE, q, links.search_params(q))


def _truncate() -> None:
    """A question longer than the library reads is kept, cut to its limit, with a notice.
    (Streamlit drops a paste longer than a text box's `max_chars` without a word: the box
    has none, and the cut happens here.)"""
    value = str(st.session_state.get(QUERY_KEY) or "")
    if len(value) > MAX_QUERY:
        st.session_state[QUERY_KEY] = value[:MAX_QUERY]
        st.session_state[TRUNCATED_KEY] = True


def main() -> None:
    st.title("Recherche")
    judge = resources.judge()
    labels = {ed.id: ed.label for ed in judge.editions()}
    ids = list(labels)
    asked = st.query_params.get(links.QUERY, "")
    wanted = [e for e in st.query_params.get(links.EDITIONS, "").split(",") if e in ids]
    # The widgets keep their state between runs; a new query string (a link was followed, or
    # Back/Forward) is written into them first, and so is the URL's when Streamlit dropped the
    # widgets' state (another page was shown in between): the URL is the state.
    seen = (asked, tuple(wanted))
    if st.session_state.get("recherche-vu") != seen or QUERY_KEY not in st.session_state:
        st.session_state["recherche-vu"] = seen
        st.session_state[QUERY_KEY] = asked
        st.session_state["recherche-editions"] = wanted
        _truncate()
    query = st.text_input(
        "Rechercher",
        placeholder="704.5g, contact mortel, deathtouch, bibliotheque vide…",
        key=QUERY_KEY,
        on_change=_truncate,
    )
    if st.session_state.pop(TRUNCATED_KEY, False):
        st.warning(TRUNCATED, icon=":material/content_cut:")
    # The filter folds away: on a phone the first result is then on the first screen.
    chosen = ", ".join(st.session_state.get("recherche-editions") or []) or "toutes"
    filters = st.expander(md(f"Éditions : {chosen}"), icon=":material/filter_list:")
    editions = filters.multiselect(
        "Éditions",
        ids,
        format_func=lambda e: f"{e} — {labels[e]}",
        placeholder="Toutes les éditions",
        key="recherche-editions",
        select_all=False,  # Streamlit's « Select all » cannot be translated
    )
    query = query.strip()
    if query != asked.strip() or editions != wanted:
        if query:
            st.query_params.from_dict(links.search_params(query, editions))
        else:
            st.query_params.clear()
        st.session_state["recherche-vu"] = (query, tuple(editions))
    if not query:
        _examples()
        _coverage(judge, found_nothing=False)
        return
    try:
        result = judge.search(query, editions=editions or None, limit=LIMIT).result
    except JudgeError as exc:
        st.error(say(exc.message))
        return
    _show(result)
    if not _useful(result):
        _coverage(judge, found_nothing=True)
    rules = [h for h in result.hits if h.kind != "glossary"]
    if rules:  # the results are drawn: the rule page's concordance, while they are read
        resources.prepare_rule_page(rules[0].rule, rules[0].edition)


main()
