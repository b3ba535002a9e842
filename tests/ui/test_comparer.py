"""Comparer page and the other editions of a rule on the Règle page."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from judge.rules.index import load_index
from tests.ui.conftest import follow, heading, link_to, no_exception, open_page, shown
from ui import links
from ui.render import plain


def test_moved_rule_is_shown_as_moved_with_its_diff(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5e", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    text = shown(app)
    assert ":orange-badge[Déplacée] **420.5e → 704.5j**" in text
    assert ":red-badge[Modifiée]" in text
    assert "Règle des légendes" in text  # the curated summary of the change
    # Deleted words in red on the old side, inserted words in green on the new side.
    bodies = [m.value for m in app.markdown]
    assert any(":red-background[" in b and "tous mis dans les cimeti" in b for b in bodies)
    assert any(":green-background[" in b and "that player chooses one of them" in b for b in bodies)
    link_to(app, regle="420.5e", edition="fr-pre2009")
    link_to(app, regle="704.5j", edition="fr-2024")


def test_a_section_compares_every_rule(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    metrics = {m.label: m.value for m in app.metric}
    assert int(metrics["Règles comparées"]) >= 10
    assert int(metrics["Déplacées"]) >= 10
    text = shown(app)
    assert "420.5c → 704.5g" in text
    assert "Sans équivalent dans fr-pre2009" in text  # 704.5h, deathtouch, is new
    link_to(app, regle="704.5h", edition="fr-2024")


def test_unknown_rule_and_swap(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="704.5j", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    assert "n'existe pas dans l'édition fr-pre2009" in plain(app.error[0].value)
    follow(app, link_to(app, regle="704.5j", de="fr-2024", vers="fr-pre2009"))
    assert ":orange-badge[Déplacée] **704.5j → 420.5e**" in shown(app)


def test_rule_page_shows_other_editions_with_diff_toggle(app: AppTest) -> None:
    app.query_params.update({"regle": "704.5j", "edition": "fr-2024"})
    app.run()
    text = shown(app)
    assert "Dans les autres éditions" in text
    assert any("numérotée 420.5e" in plain(e.label) for e in app.expander)
    assert "ils sont tous mis dans les cimetières" in text  # the old text, as it is
    toggle = app.toggle(key="diff-fr-2024-704.5j")
    toggle.set_value(True).run()
    no_exception(app)
    assert any(":red-background[~~" in m.value for m in app.markdown)
    follow(app, link_to(app, regle="420.5e", de="fr-pre2009", vers="fr-2024"))
    assert app.title[0].value == "Comparer"
    follow(app, link_to(app, regle="420.5e", edition="fr-pre2009"))
    assert "420.5e" in heading(app)


def _unmarked(markdown: str) -> str:
    """What a side of the diff reads once its highlights are taken off."""
    bare = re.sub(
        r":(?:red|green|blue)-background\[(?:~~|\*\*|\*)?|(?:~~|\*\*|\*)?(?<!\\)\]", "", markdown
    )
    return plain(bare)


def test_both_sides_keep_their_own_spacing(app: AppTest) -> None:
    # 420.5a « ou moins perd » against 704.5a « ou moins, il perd »: the old side once read
    # « ou moinsperd », its words glued by the new text's spacing.
    open_page(app, links.COMPARER, regle="420.5a", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    bodies = [_unmarked(m.value) for m in app.markdown]
    assert "Un joueur avec 0 points de vie ou moins perd la partie." in bodies
    assert "Si un joueur a 0 point de vie ou moins, il perd la partie." in bodies
    assert not any("moinsperd" in b for b in bodies)
    # quotation marks too: the old text keeps its "…", the new one its « … »
    open_page(app, links.COMPARER, regle="420.3", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    index = load_index()
    old, new = index.get("420.3", "fr-pre2009"), index.get("704.3", "fr-2024")
    assert old is not None and new is not None
    bodies = [_unmarked(m.value) for m in app.markdown]
    assert old.text in bodies and new.text in bodies


def test_rule_page_says_when_a_counterpart_is_absent(app: AppTest) -> None:
    # 2024's 704.8 in 2011: a number deduced from the move of 704, absent from the corpus.
    app.query_params.update({"regle": "704.8", "edition": "fr-2024"})
    app.run()
    no_exception(app)
    labels = [plain(e.label) for e in app.expander]
    assert any(label.startswith("fr-2011 — ") for label in labels), labels
    captions = [plain(c.value) for c in app.caption]
    assert any(
        "approchée" in c
        and "704.8 (« Actions basées sur un état ») absente du corpus de fr-2011" in c
        for c in captions
    ), captions
    # the old text's section 420 is only approximate, but in the corpus
    assert any("correspondance approchée" in c and "absente" not in c for c in captions)


def test_rule_page_diffs_no_approximate_counterpart(app: AppTest) -> None:
    # 2024's 704.5h (deathtouch) is new: the old text only has the list it belongs to, 420.5.
    app.query_params.update({"regle": "704.5h", "edition": "fr-2024"})
    app.run()
    assert any("numérotée 420.5" in plain(e.label) for e in app.expander)
    assert "Les effets basés sur un état sont les suivants" in shown(app)
    app.toggle(key="diff-fr-2024-704.5h").set_value(True).run()
    no_exception(app)
    assert "Correspondance approchée : pas de différences mot à mot" in shown(app)
    assert not any("~~" in m.value for m in app.markdown)


def test_swap_follows_the_concordance(app: AppTest) -> None:
    # « Inverser » on 420.5e fr-pre2009 → fr-2024: the rule is 704.5j in fr-2024.
    open_page(app, links.COMPARER, regle="420.5e", de="fr-pre2009", vers="fr-2024")
    next(b for b in app.button if b.label == "Inverser").click().run()
    no_exception(app)
    assert app.query_params["regle"] == "704.5j"
    assert app.query_params["de"] == "fr-2024"
    assert app.query_params["vers"] == "fr-pre2009"
    assert not app.error
    assert ":orange-badge[Déplacée] **704.5j → 420.5e**" in shown(app)


def test_a_fragment_corpus_is_not_a_list_of_new_rules(app: AppTest) -> None:
    # fr-2011 ships section 118 only: its 704 is a title, 704's rules are absent, not new.
    open_page(app, links.COMPARER, regle="704", de="fr-2011", vers="fr-2024")
    no_exception(app)
    text = shown(app)
    assert "Inchangée" not in text
    assert ":gray-badge[Texte absent du corpus]" in text
    assert "Sans équivalent dans fr-2011" not in text
    assert "Absentes du corpus de fr-2011" in text
    metrics = {plain(m.label): m.value for m in app.metric}
    listed = (
        sum(1 for lk in app.page_link if "edition=fr-2024" in lk.proto.query_string) - 1
    )  # the compared rule's own link
    assert int(metrics["Absentes du corpus de fr-2011"]) == listed > 10
    assert int(metrics["Sans équivalent"]) == 0
    # summaries are whole first lines, or cut at a word boundary with « … »
    firsts = [
        r.text.strip().split("\n")[0]
        for r in load_index().edition("fr-2024").rules.values()
        if r.number.startswith("704.")
    ]
    cut = 0
    for m in app.markdown:
        value = plain(m.value)
        if value.endswith("…"):
            cut += 1
            assert any(f.startswith(value[:-1] + " ") for f in firsts), value
    assert cut


def test_new_rules_are_counted(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    metrics = {plain(m.label): m.value for m in app.metric}
    heading = next(
        plain(h.value) for h in app.subheader if "Sans équivalent dans" in plain(h.value)
    )
    fresh = int(re.search(r"\((\d+)\)", heading).group(1))  # type: ignore[union-attr]
    assert int(metrics["Sans équivalent"]) >= fresh >= 1


def _jargon_only_in_details(app: AppTest) -> None:
    details = [e for e in app.expander if e.label == "Détails pour les arbitres"]
    assert details
    inside = [plain(c.value) for d in details for c in d.caption]
    assert any("confiance 100" in c and "renumérotation" in c for c in inside), inside
    for element in [*app.caption, *app.markdown]:
        text = plain(element.value)
        if "confiance" in text or "renumbering.toml" in text:
            assert text in inside, text


def test_concordance_jargon_is_for_referees_only(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5e", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    _jargon_only_in_details(app)
    app.query_params.clear()
    app.query_params.update({"regle": "704.5j", "edition": "fr-2024"})
    open_page(app, links.REGLE, regle="704.5j", edition="fr-2024")
    no_exception(app)
    _jargon_only_in_details(app)


def test_unknown_edition_in_a_compare_link_says_so(app: AppTest) -> None:
    open_page(app, links.COMPARER, regle="420.5e", de="xx", vers="fr-2024")
    no_exception(app)
    warnings = [plain(w.value) for w in app.warning]
    assert any(
        "Édition « xx » inconnue : fr-pre2009 est affichée à la place" in w for w in warnings
    )


def test_the_form_folds_above_a_diff_only(app: AppTest) -> None:
    def folded() -> bool:
        return any(t.label == "Règle ou section" for e in app.expander for t in e.text_input)

    open_page(app, links.COMPARER, regle="420.5e", de="fr-pre2009", vers="fr-2024")
    assert folded()
    open_page(app, links.COMPARER, regle="704.5j", de="fr-pre2009", vers="fr-2024")
    no_exception(app)
    assert app.error and not folded()
    open_page(app, links.COMPARER)
    assert not folded()
