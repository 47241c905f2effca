"""HTML and saved web pages (.html, .htm, .xhtml, .mhtml): the main content with its headings (lxml).

Boilerplate goes first: scripts and forms, the page's navigation, banner, footer and sidebars
(HTML5 elements and ARIA roles), hidden elements, cookie/share/related/comment blocks named so by
their class or id, and link lists. The text then comes from ``<main>`` (or the one ``<article>``,
else the body), block by block, with every ``h1``-``h6`` opening a section of the heading path.
"""

from __future__ import annotations

import codecs
import re
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.document import Document, ReaderError, TextBuilder

_DROP_TAGS = frozenset({
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "form", "button",
    "select", "input", "textarea", "nav", "aside", "footer", "dialog", "menu",
})
_DROP_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog",
                         "menu", "menubar", "toolbar"})
# class/id words of page furniture; a named block is dropped only when it holds little of the page's text
_FURNITURE = re.compile(r"(?:^|[-_\s])(?:cookies?|consent|gdpr|breadcrumbs?|sidebar|share|sharing|social|related|"
                        r"comments?|advert\w*|ads?|promo|newsletter|subscribe|skip-?link|popup|modal|"
                        r"site-?header|site-?footer|masthead)(?:[-_\s]|$)", re.IGNORECASE)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_ITEM_TAGS = frozenset({"li", "dt", "dd", "tr"})  # consecutive ones are separated by one line break
_BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "blockquote", "pre", "ul", "ol", "dl", "table", "thead", "tbody",
    "tfoot", "figure", "figcaption", "address", "details", "summary", "hr", "center", "caption", "body", "header",
    *_ITEM_TAGS, *_HEADINGS,
})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._-]+)""", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_INVISIBLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def read_html(path: Path) -> Document | None:
    """The main text of an HTML file or a saved page (None when nothing but boilerplate is left)."""
    data = path.read_bytes()
    markup = _mhtml_html(path, data) if path.suffix.lower() in (".mht", ".mhtml") else _decode(data)
    return html_document(markup, source=str(path), default_title=path.stem)


def html_document(markup: str, source: str = "", default_title: str = "") -> Document | None:
    import lxml.html
    from lxml.etree import ParserError

    markup = _XML_DECLARATION.sub("", markup, count=1)  # lxml refuses str input that declares an encoding
    if not markup.strip():
        return None
    try:
        tree = lxml.html.document_fromstring(markup)
    except (ParserError, ValueError) as exc:
        raise ReaderError(f"{source or 'HTML'}: not readable as HTML ({exc})") from None
    page_title = " ".join((tree.findtext(".//title") or "").split())
    _drop_boilerplate(tree)
    root = _main_element(tree)
    builder = TextBuilder()
    _Walker(builder).walk(root)
    if not builder.text.strip():
        return None
    h1 = next((" ".join(h.text_content().split()) for h in root.iter("h1")), "")
    return Document(title=h1 or page_title or default_title, text=builder.text, source=source,
                    metadata={"format": "html"}, sections=builder.sections())


def _decode(data: bytes) -> str:
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, "replace")
    if m := _META_CHARSET.search(data[:4096]):
        try:
            return data.decode(m.group(1).decode("ascii"), "replace")
        except LookupError:
            pass  # an unknown charset name: guess below
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def _mhtml_html(path: Path, data: bytes) -> str:
    """The page of a single-file saved web page (MIME multipart, as browsers save .mhtml)."""
    message = BytesParser(policy=policy.default).parsebytes(data)
    part = next((p for p in message.walk() if p.get_content_type() in ("text/html", "application/xhtml+xml")), None)
    if part is None:
        raise ReaderError(f"{path}: no HTML page inside this saved web page (MHTML)")
    content = part.get_content()
    return content if isinstance(content, str) else _decode(content)


def _text_length(el: Any) -> int:
    return len("".join(el.text_content().split()))


def _drop_boilerplate(tree: Any) -> None:
    body = tree.find("body")
    if body is None:
        return
    doomed = []
    for el in body.iter():
        if not isinstance(el.tag, str):
            continue  # comments, processing instructions
        role = (el.get("role") or "").strip().lower()
        if (el.tag in _DROP_TAGS or role in _DROP_ROLES or el.get("hidden") is not None
                or el.get("aria-hidden") == "true" or _INVISIBLE.search(el.get("style") or "") or _page_header(el)):
            doomed.append(el)
    _remove(doomed)
    total = max(_text_length(body), 1)
    named = [el for el in body.iter() if isinstance(el.tag, str) and el.tag != "body"
             and _FURNITURE.search(f"{el.get('class') or ''} {el.get('id') or ''}")
             and _text_length(el) < total / 3 and not any(True for _ in el.iter("h1"))]
    _remove(named)
    _remove([el for el in body.iter("ul", "ol", "div", "p", "table") if _link_list(el)])


def _page_header(el: Any) -> bool:
    """A <header> of the page (site name, menus), not the header of an article or section."""
    return el.tag == "header" and not any(a.tag in ("article", "main", "section") for a in el.iterancestors())


def _link_list(el: Any) -> bool:
    """Mostly links, at least three of them: a menu, a 'related' list, a tag cloud."""
    links = el.findall(".//a")
    if len(links) < 3:
        return False
    text = _text_length(el)
    return text > 0 and sum(_text_length(a) for a in links) / text >= 0.6


def _remove(elements: list[Any]) -> None:
    for el in elements:
        parent = el.getparent()
        if parent is None:
            continue  # already gone with an ancestor
        if el.tail and el.tail.strip():  # text after the element belongs to the parent
            previous = el.getprevious()
            if previous is not None:
                previous.tail = (previous.tail or "") + el.tail
            else:
                parent.text = (parent.text or "") + el.tail
        parent.remove(el)


def _main_element(tree: Any) -> Any:
    body = tree.find("body")
    if body is None:
        return tree
    for candidates in (body.findall(".//main"), body.xpath(".//*[@role='main']"), body.findall(".//article")):
        if len(candidates) == 1 and _text_length(candidates[0]) > 0:
            return candidates[0]
    return body


class _Walker:
    """Depth-first over the content: inline text gathers into a line, block elements end it."""

    def __init__(self, builder: TextBuilder) -> None:
        self.builder = builder
        self.inline: list[str] = []
        self.item = False  # the gathered text belongs to a list item or table row

    def flush(self) -> None:
        lines = (" ".join(line.split()) for line in "".join(self.inline).split("\n"))
        text = "\n".join(line for line in lines if line)
        self.builder.block(text, item=self.item)
        self.inline, self.item = [], False

    def _contents(self, el) -> None:
        """An element's own text, then each child followed by the text after it."""
        if el.text:
            self.inline.append(el.text)
        for child in el:
            self.walk(child)
            if child.tail:
                self.inline.append(child.tail)

    def walk(self, el: Any) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in _HEADINGS:
            self.flush()
            self.builder.heading(_HEADINGS[tag], el.text_content())
        elif tag == "pre":
            self.flush()
            self.builder.block(el.text_content().strip("\n"))
        elif tag == "tr":
            self.flush()
            cells = [" ".join(c.text_content().split()) for c in el if c.tag in ("td", "th")]
            self.builder.block(" | ".join(c for c in cells if c), item=True)
        elif tag == "br":
            self.inline.append("\n")
        elif tag in _BLOCK_TAGS:
            self.flush()
            self.item = tag in _ITEM_TAGS
            self._contents(el)
            self.flush()
            return
        elif tag:
            self._contents(el)
            return
        # a heading, pre, row, br or comment is done here; the parent's loop adds its tail
