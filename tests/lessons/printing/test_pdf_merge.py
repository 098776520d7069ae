"""The PDF merger that joins a class printed in parts: pages, outline, title, language, fonts."""

from __future__ import annotations

import gc
import io
from typing import Any

import pytest
from pypdf import PdfReader

from lessons.printing.pdf_merge import merge_pdfs
from lessons.printing.pdf_render import html_to_pdf

TITLE = "Bilans de progrès · CM2"


def _part(names: list[str]) -> bytes:
    """Print one part of a class: a report (a page or more) a name, as the class PDF's head."""
    reports = "".join(
        f'<section style="break-before: page"><h1>Bilan · {name}</h1>'
        f"<p>Fractions <strong>égales</strong> <em>{name}</em></p></section>"
        for name in names
    )
    return html_to_pdf(
        f'<!doctype html><html lang="fr"><head><title>{TITLE}</title></head>'
        f"<body>{reports}</body></html>"
    )


def _font_programs(reader: PdfReader) -> set[int]:
    """Return the object numbers of the font programs the pages use."""
    found = set()
    for page in reader.pages:
        resources: Any = page["/Resources"]
        fonts: Any = resources.get_object().get("/Font", {})
        for font in fonts.get_object().values():
            font = font.get_object()
            for descendant in font.get("/DescendantFonts", [font]):
                descriptor = descendant.get_object()["/FontDescriptor"].get_object()
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    if key in descriptor:
                        found.add(descriptor.raw_get(key).idnum)
    return found


@pytest.fixture(scope="module")
def parts() -> list[bytes]:
    pytest.importorskip("weasyprint")
    return [_part(["Anaïs", "Basile"]), _part(["Chloé"]), _part(["Inès", "Zoé"])]


def test_the_pages_and_the_outline_follow_the_parts_in_order(parts: list[bytes]) -> None:
    merged = PdfReader(io.BytesIO(merge_pdfs(parts)))
    names = ["Anaïs", "Basile", "Chloé", "Inès", "Zoé"]
    assert len(merged.pages) == sum(len(PdfReader(io.BytesIO(p)).pages) for p in parts) == 5
    assert [page.extract_text().splitlines()[0] for page in merged.pages] == [
        f"Bilan · {name}" for name in names
    ]
    entries: list[Any] = merged.outline  # flat here: one entry per part
    outline = [(e.title, merged.get_destination_page_number(e)) for e in entries]
    assert outline == [(f"Bilan · {name}", n) for n, name in enumerate(names)]


def test_the_title_and_the_language_stay(parts: list[bytes]) -> None:
    merged = PdfReader(io.BytesIO(merge_pdfs(parts)))
    assert merged.metadata is not None and merged.metadata.title == TITLE
    lang: object = merged.root_object["/Lang"]
    assert lang == "fr"


def test_the_fonts_every_part_embeds_are_kept_once(parts: list[bytes]) -> None:
    first = PdfReader(io.BytesIO(parts[0]))
    merged_bytes = merge_pdfs(parts)
    merged = PdfReader(io.BytesIO(merged_bytes))
    assert len(_font_programs(merged)) == len(_font_programs(first)) >= 2
    assert len(merged_bytes) < sum(len(part) for part in parts) / 2


def test_one_part_is_its_own_pdf_and_none_is_refused(parts: list[bytes]) -> None:
    assert merge_pdfs(parts[:1]) is parts[0]
    with pytest.raises(ValueError, match="nothing to merge"):
        merge_pdfs([])


class _RecordingHTML:
    """Stand in for weasyprint.HTML: note whether the collector runs while it writes."""

    collecting: list[bool] = []

    def __init__(self, **kwargs: Any) -> None:
        pass

    def write_pdf(self, **kwargs: Any) -> bytes:
        self.collecting.append(gc.isenabled())
        return b"%PDF-fake"


@pytest.mark.parametrize("before", [True, False])
def test_the_collector_pauses_while_a_pdf_is_written_then_is_as_before(
    before: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    weasyprint = pytest.importorskip("weasyprint")
    monkeypatch.setattr(weasyprint, "HTML", _RecordingHTML)
    _RecordingHTML.collecting = []
    was = gc.isenabled()
    try:
        (gc.enable if before else gc.disable)()
        assert html_to_pdf("<p>x</p>") == b"%PDF-fake"
        assert gc.isenabled() is before
    finally:
        (gc.enable if was else gc.disable)()
    assert _RecordingHTML.collecting == [False]


def test_the_collector_runs_again_after_a_failed_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("layout")

    weasyprint = pytest.importorskip("weasyprint")
    monkeypatch.setattr(weasyprint, "HTML", broken)
    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="layout"):
        html_to_pdf("<p>x</p>")
    assert gc.isenabled()
