"""Saved web pages of rules sites (HTML), parsed with beautifulsoup4's html.parser.

Rule numbers are found, in order of preference:
- at the start of a block's text (`<p>704.5g Si…</p>`, also when the number sits in its own
  `<span class="rule-number">` / `<strong>` / `<a>`);
- in an `id`/`name` attribute (`<a id="704.5g"></a>`, `<p id="regle-704-5g">`);
- from an `<ol>`'s numbering: under section 704, `<li>` n is 704.n (`start`/`value` honoured);
  a nested `<ol>` (or `type="a"`) numbers subrules a, b, … skipping l and o.
Scripts, styles and page chrome (nav, header, footer, menus…) are ignored; links that read
`100. Généralités` form the table of contents. Text is kept as plain text, never as HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from bs4 import BeautifulSoup
from bs4.element import (
    CData,
    Comment,
    Declaration,
    Doctype,
    NavigableString,
    PageElement,
    ProcessingInstruction,
    Tag,
)

from judge.rules import numbers
from judge.rules.errors import DocumentError
from judge.rules.language import Lang, detect_language
from judge.rules.layouts import official
from judge.rules.layouts.official import (
    CONTENTS_RE,
    EXAMPLE_RE,
    RuleBuilder,
    empty_rule_issues,
    find_effective_date,
    majority_language,
    sequence_issues,
)
from judge.rules.model import (
    GlossaryEntry,
    Paragraph,
    ParagraphKind,
    ParsedDocument,
    RawRule,
    Source,
)

_SKIP_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "iframe",
        "form",
        "button",
        "select",
        "textarea",
        "input",
        "head",
        "title",
        "meta",
        "link",
        "canvas",
        "object",
        "embed",
        "video",
        "audio",
        "img",
    }
)
_CHROME_TAGS = frozenset({"nav", "header", "footer", "aside"})
_CHROME_WORDS_RE = re.compile(
    r"(?:^|[\s\-_])(?:nav|navbar|navigation|menu|sidebar|footer|header|breadcrumbs?|cookies?|"
    r"share|sharing|social|comments?|advert\w*|ads?|banner|skip|newsletter|related)"
    r"(?=$|[\s\-_])",
    re.I,
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCK_TAGS = (
    frozenset(
        {
            "html",
            "body",
            "main",
            "article",
            "section",
            "div",
            "p",
            "ol",
            "ul",
            "li",
            "dl",
            "dt",
            "dd",
            "table",
            "thead",
            "tbody",
            "tfoot",
            "tr",
            "td",
            "th",
            "caption",
            "blockquote",
            "pre",
            "figure",
            "figcaption",
            "center",
            "fieldset",
            "details",
            "summary",
            "address",
            "hr",
        }
    )
    | _HEADINGS
    | _CHROME_TAGS
)
_IGNORED_NODES = (Comment, Declaration, Doctype, ProcessingInstruction, CData)

# A number leading a block's text: `704.5g`, `704.5.`, `704.`, `7.`
_LEAD_RE = re.compile(r"(\d{3}\.\d{1,3}[a-z]{0,2}|\d{3}|\d)\.?(?:\s+(.*)|$)", re.S)
_NUMBER_ONLY_RE = re.compile(r"\d{3}(?:\.\d{1,3}[a-z]{0,2})?\.?|\d\.")
# Rule numbers in id/name attributes: `704.5g`, `rule-704.5g`, `regle-704-5g`, `r704_5g`.
_ID_RE = re.compile(r"(?:^|\D)(\d{3})(?:[.\-_](\d{1,3})([a-z]{0,2}))?$")
_GLOSSARY_MARKERS = frozenset({"glossary", "glossaire"})
_END_MARKERS = frozenset(
    {"credits", "crédits", "customer service information", "service clientèle", "questions?"}
)
_LETTER_TYPES = frozenset({"a", "A"})
_ALPHA_STYLE_RE = re.compile(r"list-style(?:-type)?\s*:\s*(?:lower|upper)-(?:alpha|latin)", re.I)


def _attr(tag: Tag, name: str) -> str:
    value = tag.get(name)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return " ".join(value)


def _clean(text: str) -> str:
    """Collapse HTML whitespace (including no-break spaces) to single spaces."""
    return " ".join(text.split())


def _is_chrome(tag: Tag) -> bool:
    if tag.name in _CHROME_TAGS:
        return True
    marks = f"{_attr(tag, 'class')} {_attr(tag, 'id')} {_attr(tag, 'role')}"
    return bool(marks.strip()) and bool(_CHROME_WORDS_RE.search(marks.replace("_", " ")))


def _number_from_id(tag: Tag, *, sections: bool = False) -> str | None:
    """A rule number written in the tag's id/name. Bare section numbers (`id="s704"`) are
    taken only for headings: on a paragraph, `id="p123"` is more likely a counter."""
    for name in ("id", "name"):
        m = _ID_RE.search(_attr(tag, name).lower())
        if m:
            section, rule, letters = m.groups()
            if rule is None and not sections:
                continue
            text = section if rule is None else f"{section}.{rule}{letters}"
            number = numbers.canonical(text)
            if number is not None:
                return number
    return None


def _has_block(tag: Tag) -> bool:
    return tag.find(lambda t: t.name in _BLOCK_TAGS) is not None


def _text_of(nodes: Iterable[PageElement]) -> str:
    parts: list[str] = []
    for node in nodes:
        if isinstance(node, _IGNORED_NODES):
            continue
        if isinstance(node, NavigableString):
            parts.append(str(node))
        elif isinstance(node, Tag):
            if node.name in _SKIP_TAGS:
                continue
            if node.name == "br":
                parts.append(" ")
                continue
            parts.append(_text_of(node.children))
    return "".join(parts)


def _line_of(run: list[PageElement], container: Tag) -> int:
    """Source line where a run's text starts. Tags carry bs4's `sourceline`; loose text is
    placed after the tag before it (a `<br>` usually) by counting the newlines in between."""
    for node in run:
        if isinstance(node, Tag) and node.sourceline:
            return node.sourceline
        if isinstance(node, NavigableString):
            text = str(node)
            if not text.strip():
                continue
            lead = text[: len(text) - len(text.lstrip())].count("\n")
            prev = node.previous_sibling
            if isinstance(prev, Tag) and prev.sourceline:
                return prev.sourceline + _text_of(prev.children).count("\n") + lead
            return (container.sourceline or 1) + lead
    return container.sourceline or 1


def _toc_link_text(nodes: list[PageElement]) -> str | None:
    """The text of a run that is one link reading like a contents line, else None."""
    tags = [n for n in nodes if isinstance(n, Tag)]
    loose = _clean("".join(str(n) for n in nodes if isinstance(n, NavigableString)))
    if len(tags) != 1 or loose:
        return None
    link = tags[0] if tags[0].name == "a" else tags[0].find("a")
    if link is None or not link.get("href"):
        return None
    text = _clean(_text_of(tags[0].children))
    if _clean(_text_of(link.children)) != text or not CONTENTS_RE.match(text):
        return None
    return text


class _Page:
    def __init__(self, file: str, default_lang: Lang) -> None:
        self.file = file
        self.b = RuleBuilder(file, default_lang)
        self.contents: dict[str, str] = {}
        self.mode = "before"  # before | rules | glossary | after
        self.section: str | None = None
        self.pending: str | None = None  # number from an empty anchor, for the next block
        self.glossary: list[tuple[str, int, list[Paragraph]]] = []

    # --- traversal -----------------------------------------------------------------------

    def nodes(self, nodes: Iterable[PageElement], container: Tag) -> None:
        """Walk a container's children: inline runs (split at <br>) and block children."""
        run: list[PageElement] = []
        first = True
        for child in nodes:
            if isinstance(child, _IGNORED_NODES):
                continue
            if isinstance(child, NavigableString):
                run.append(child)
                continue
            if not isinstance(child, Tag) or child.name in _SKIP_TAGS:
                continue
            if child.name == "br":
                first = self.flush(run, container, first)
                run = []
            elif child.name in _BLOCK_TAGS or _has_block(child):
                first = self.flush(run, container, first)
                run = []
                self.block(child)
            else:
                run.append(child)
        self.flush(run, container, first)

    def block(self, tag: Tag) -> None:
        if _is_chrome(tag) and not self._holds_numbered_heading(tag):
            return
        name = tag.name
        if name in _HEADINGS:
            self.heading(tag)
        elif name == "ol":
            self.ordered(tag, None)
        elif name == "ul":
            if not self._is_toc_list(tag):
                self.nodes(tag.children, tag)
        elif name == "dl" and self.mode == "glossary":
            self.definition_list(tag)
        elif name == "pre":
            self.preformatted(tag)
        elif name == "tr":
            cells = [c for c in tag.find_all(["td", "th"], recursive=False)]
            text = " ".join(_clean(_text_of(c.children)) for c in cells)
            self.text_block(_clean(text), tag.sourceline or 1, None, None, [tag])
        else:
            self.nodes(tag.children, tag)

    def preformatted(self, pre: Tag) -> None:
        """`<pre>`: line breaks matter. A whole official text saved as a page (the .txt opened
        in a browser) goes to the official parser; otherwise each line is a block."""
        raw = _text_of(pre.children)
        first_line = pre.sourceline or 1
        try:
            inner = official.parse(raw, self.file)
        except DocumentError:
            inner = None
        if inner is not None and len(inner.rules) > 1:
            self.merge(inner, first_line - 1)
            return
        for offset, line_text in enumerate(raw.split("\n")):
            text = _clean(line_text)
            if text:
                self.text_block(text, first_line + offset, None, None, [])

    def merge(self, inner: ParsedDocument, shift: int) -> None:
        """Take the rules, glossary and contents of a document parsed from a `<pre>`."""

        def moved(p: Paragraph) -> Paragraph:
            return replace(p, source=Source(self.file, p.source.line + shift))

        for rule in inner.rules:
            line = (rule.source.line if rule.source else 1) + shift
            target = self.open(rule.number, line, rule.title)
            if target is not None:
                paras = [moved(p) for p in rule.paragraphs]
                target.paragraphs.extend(paras)
                self.b.all_paragraphs.extend(paras)
        for entry in inner.glossary:
            paras = [moved(p) for p in entry.paragraphs]
            self.glossary.append((entry.term, entry.source.line + shift, paras))
            self.b.all_paragraphs.extend(paras)
        for number, title in inner.contents.items():
            self.contents.setdefault(number, title)
        self.b.issues.extend(
            replace(i, source=Source(self.file, i.source.line + shift) if i.source else None)
            for i in inner.issues
            if i.kind != "gap"  # recomputed over the whole page
        )
        self.mode = "after" if inner.glossary else "rules"

    def _holds_numbered_heading(self, tag: Tag) -> bool:
        for h in tag.find_all(list(_HEADINGS)):
            if _LEAD_RE.match(_clean(_text_of(h.children))):
                return True
        return False

    def flush(self, run: list[PageElement], container: Tag, first: bool) -> bool:
        """Process one inline run; returns whether the container's first run is still due."""
        if not run:
            return first
        text = _clean(_text_of(run))
        id_number = None
        for node in run:
            if isinstance(node, Tag):
                id_number = _number_from_id(node) or next(
                    (
                        n
                        for t in node.find_all(lambda t: t.get("id") or t.get("name"))
                        if (n := _number_from_id(t))
                    ),
                    None,
                )
                if id_number:
                    break
        if first and id_number is None:
            id_number = _number_from_id(container)
        if not text:
            if id_number:
                self.pending = id_number
            return first
        line = _line_of(run, container)
        lead = self._lead_tag_number(run)
        self.text_block(text, line, id_number, lead, run)
        return False

    def _lead_tag_number(self, run: list[PageElement]) -> str | None:
        """A number standing alone in the run's first tag (`<strong>704.5g</strong>Si…`)."""
        for node in run:
            if isinstance(node, NavigableString):
                if str(node).strip():
                    return None
                continue
            if isinstance(node, Tag):
                text = _clean(_text_of(node.children))
                if _NUMBER_ONLY_RE.fullmatch(text):
                    return text
                return None
        return None

    # --- blocks --------------------------------------------------------------------------

    def switch_mode(self, text: str) -> bool:
        """A "Glossaire" or "Crédits" title: switch mode and say so."""
        mark = text.lower().rstrip(" :")
        if mark in _GLOSSARY_MARKERS:
            self.mode = "glossary"
        elif mark in _END_MARKERS:
            self.mode = "after"
        else:
            return False
        return True

    def heading(self, tag: Tag) -> None:
        text = _clean(_text_of(tag.children))
        line = tag.sourceline or 1
        if not text:
            number = _number_from_id(tag, sections=True)
            if number:
                self.pending = number
            return
        if self.switch_mode(text):
            return
        m = _LEAD_RE.match(text)
        number = numbers.canonical(m.group(1)) if m else None
        rest = (m.group(2) or "").strip() if m else text
        if number is None:
            number = _number_from_id(tag, sections=True)
            rest = text
        if number is None:
            if self.mode == "glossary":
                self.glossary.append((text, line, []))
            return
        self.pending = None
        kind = numbers.kind_of(number)
        if kind in ("chapter", "section"):
            self.open(number, line, title=rest or None)
        else:
            self.open(number, line)
            if rest:
                self.add(rest, line)

    def text_block(
        self,
        text: str,
        line: int,
        id_number: str | None,
        lead: str | None,
        nodes: list[PageElement],
    ) -> None:
        if not text or self.mode == "after" or _toc_link_text(nodes) is not None:
            return
        # A "Glossaire" / "Crédits" title written as a paragraph, not a heading.
        if self.mode in ("rules", "glossary") and self.switch_mode(text):
            return
        if self.mode == "glossary":
            self.glossary_block(text, line, nodes)
            return

        number, rest = self._leading_number(text, lead)
        if number is None and EXAMPLE_RE.match(text):
            if self.mode == "rules" and self.b.current is not None:
                self.add(text, line, "example")
            return
        if number is None:
            number = id_number or self.pending
            rest = text
        self.pending = None
        if number is None:
            if self.mode == "rules" and self.b.current is not None:
                self.add(text, line)
            return
        kind = numbers.kind_of(number)
        if kind in ("chapter", "section"):
            self.open(number, line, title=rest or None)
            return
        self.open(number, line)
        if rest:
            self.add(rest, line)

    def _leading_number(self, text: str, lead: str | None) -> tuple[str | None, str]:
        if lead is not None:
            number = numbers.canonical(lead)
            if number is not None:
                rest = text[len(lead) :].lstrip(" .")
                if self._acceptable(number, rest):
                    return number, rest
        m = _LEAD_RE.match(text)
        if m:
            number = numbers.canonical(m.group(1))
            rest = (m.group(2) or "").strip()
            if number is not None and self._acceptable(number, rest):
                return number, rest
        return None, text

    @staticmethod
    def _acceptable(number: str, rest: str) -> bool:
        """Chapter and section numbers outside headings only when the rest reads as a title
        (short, no final full stop): `3. Tapez la carte.` in a paragraph is not chapter 3."""
        if numbers.kind_of(number) in ("chapter", "section"):
            return 0 < len(rest) <= 100 and not rest.endswith(".")
        return True

    def ordered(self, ol: Tag, parent_number: str | None) -> None:
        if self._is_toc_list(ol):
            return
        lettered = _attr(ol, "type") in _LETTER_TYPES or bool(
            _ALPHA_STYLE_RE.search(_attr(ol, "style"))
        )
        base = parent_number
        if base is None:
            current = self.b.current
            if lettered and current is not None:
                kind = numbers.kind_of(current.number)
                if kind == "rule":
                    base = current.number
                elif kind == "subrule":
                    base = numbers.parent(current.number)
            elif not lettered:
                base = self.section
        base_kind = numbers.kind_of(base) if base else None
        if base is None or base_kind not in ("section", "rule") or self.mode == "glossary":
            self.nodes(ol.children, ol)
            return
        try:
            counter = int(_attr(ol, "start") or 1)
        except ValueError:
            counter = 1
        for li in ol.find_all("li", recursive=False):
            value = _attr(li, "value")
            if value.isdigit():
                counter = int(value)
            if counter < 1:
                counter = 1
            if base_kind == "section":
                number = f"{base}.{counter}"
            else:
                number = f"{base}{numbers.letters_from_value(counter)}"
            if self.list_item(li, number):
                counter += 1

    def list_item(self, li: Tag, positional: str) -> bool:
        """One `<li>` of a numbered list; returns False when it was not a rule (an example)."""
        children = list(li.children)
        head: list[PageElement] = []
        rest_at = len(children)
        for i, child in enumerate(children):
            if isinstance(child, Tag) and (
                child.name in _BLOCK_TAGS or child.name == "br" or _has_block(child)
            ):
                if (
                    not _clean(_text_of(head))
                    and child.name in ("p", "div", "span")
                    and not _has_block(child)
                ):
                    # `<li><p>text</p><ol>…</ol></li>`: the first paragraph is the rule text.
                    head = list(child.children)
                    rest_at = i + 1
                    break
                rest_at = i
                break
            head.append(child)
        text = _clean(_text_of(head))
        line = li.sourceline or 1
        if EXAMPLE_RE.match(text):
            if self.b.current is not None:
                self.add(text, line, "example")
            self._li_rest(children[rest_at:], li, self.b.current)
            return False
        number, body = self._leading_number(text, self._lead_tag_number(head))
        if number is None or numbers.kind_of(number) != numbers.kind_of(positional):
            number, body = positional, text
        self.pending = None
        rule = self.open(number, line)
        if body:
            self.add(body, line)
        self._li_rest(children[rest_at:], li, rule)
        return True

    def _li_rest(self, children: list[PageElement], li: Tag, rule: RawRule | None) -> None:
        number = rule.number if rule is not None else None
        run: list[PageElement] = []
        for child in children:
            if isinstance(child, Tag) and child.name == "ol":
                self.flush(run, li, False)
                run = []
                self.ordered(child, number)
            elif isinstance(child, Tag) and (child.name in _BLOCK_TAGS or _has_block(child)):
                self.flush(run, li, False)
                run = []
                self.block(child)
            elif isinstance(child, Tag) and child.name == "br":
                self.flush(run, li, False)
                run = []
            elif not isinstance(child, _IGNORED_NODES):
                if isinstance(child, Tag) and child.name in _SKIP_TAGS:
                    continue
                run.append(child)
        self.flush(run, li, False)

    def _is_toc_list(self, lst: Tag) -> bool:
        items = lst.find_all("li", recursive=False)
        if len(items) < 2:
            return False
        links = 0
        for li in items:
            own = [c for c in li.children if not (isinstance(c, Tag) and c.name in ("ul", "ol"))]
            if _toc_link_text(own) is not None:
                links += 1
        return links * 10 >= len(items) * 6

    # --- rules and glossary --------------------------------------------------------------

    def open(self, number: str, line: int, title: str | None = None) -> RawRule | None:
        self.mode = "rules"
        kind = numbers.kind_of(number)
        if kind == "section":
            self.section = number
        elif kind in ("rule", "subrule"):
            self.section = number.split(".")[0]
        return self.b.start(number, line, title)

    def add(self, text: str, line: int, kind: ParagraphKind = "text") -> None:
        current = self.b.current
        if current is not None:
            current.paragraphs.append(self.b.paragraph(text, line, kind))

    def glossary_block(self, text: str, line: int, nodes: list[PageElement]) -> None:
        tags = [n for n in nodes if isinstance(n, Tag)]
        loose = _clean("".join(str(n) for n in nodes if isinstance(n, NavigableString)))
        is_term = (
            len(tags) == 1
            and not loose
            and (tags[0].name in ("strong", "b", "dt") or tags[0].find(["strong", "b"]))
            and _clean(_text_of(tags[0].children)) == text
            and len(text) <= 80
        )
        if is_term:
            self.glossary.append((text, line, []))
        elif self.glossary:
            kind: ParagraphKind = "example" if EXAMPLE_RE.match(text) else "text"
            self.glossary[-1][2].append(self.b.paragraph(text, line, kind))

    def definition_list(self, dl: Tag) -> None:
        for child in dl.find_all(["dt", "dd"]):
            text = _clean(_text_of(child.children))
            if not text:
                continue
            line = child.sourceline or 1
            if child.name == "dt":
                self.glossary.append((text, line, []))
            elif self.glossary:
                kind: ParagraphKind = "example" if EXAMPLE_RE.match(text) else "text"
                self.glossary[-1][2].append(self.b.paragraph(text, line, kind))


# The walk below recurses a few frames per level of nesting; real rules pages nest a few
# dozen levels. Deeper pages are refused before the walk (no RecursionError).
MAX_DEPTH = 200


def _check_depth(soup: BeautifulSoup, file: str) -> None:
    """Refuse a page nested deeper than MAX_DEPTH, measured without recursion."""
    stack: list[tuple[Tag, int]] = [(soup, 0)]
    while stack:
        tag, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise DocumentError(
                f"La page « {file} » est un document HTML trop imbriqué (plus de {MAX_DEPTH} "
                f"niveaux de balises, ligne {tag.sourceline or 1}).",
                file,
                tag.sourceline or 1,
            )
        stack.extend((child, depth + 1) for child in tag.contents if isinstance(child, Tag))


def parse(text: str, file: str) -> ParsedDocument:
    """Parse a saved HTML page of rules into a ParsedDocument."""
    soup = BeautifulSoup(text, "html.parser")
    _check_depth(soup, file)
    root = soup.body or soup
    visible = _clean(_text_of(root.children))
    page = _Page(file, detect_language(visible[:50000]))

    for link in soup.find_all("a", href=True):
        c = CONTENTS_RE.match(_clean(_text_of(link.children)))
        if c and c.group(1) not in page.contents:
            page.contents[c.group(1)] = c.group(2).strip()

    page.nodes(root.children, root if isinstance(root, Tag) else soup)

    b = page.b
    if not b.rules:
        raise DocumentError(
            f"La page « {file} » ne contient aucune règle numérotée "
            f"(ni « 704.5g … » en début de paragraphe, ni liste numérotée sous une section).",
            file,
            1,
        )
    doc = ParsedDocument(file=file, layout="html", rules=b.rules, contents=page.contents)
    doc.date = find_effective_date(visible)
    doc.glossary = [
        GlossaryEntry(edition="", term=term, paragraphs=tuple(paras), source=Source(file, line))
        for term, line, paras in page.glossary
    ]
    doc.issues = b.issues + sequence_issues(b.rules, file) + empty_rule_issues(b.rules)
    doc.language = majority_language(b.all_paragraphs, b.default)
    return doc
