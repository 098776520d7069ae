"""The group's pairs are drawn to scale: every tick within 1 px of value × line length."""

from __future__ import annotations

from fractions import Fraction
from xml.etree import ElementTree

import pytest

from lessons.plans.number_lines import pair_svg

SVG = "{http://www.w3.org/2000/svg}"


def check_scale(svg: str) -> int:
    """Check every element with a value against origin + value / span × length; count them."""
    root = ElementTree.fromstring(svg)
    origin, length = float(root.get("data-origin", "")), float(root.get("data-length", ""))
    span = int(root.get("data-span", ""))
    checked = 0
    for element in root.iter():
        value = element.get("data-value")
        if value is None:
            continue
        fraction = Fraction(value)
        tag = element.tag.removeprefix(SVG)
        if tag == "line":
            assert element.get("x1") == element.get("x2")
            x = float(element.get("x1", ""))
        elif tag == "circle":
            x = float(element.get("cx", ""))
        elif tag == "rect":  # a shaded part of a strip: its right end
            x = float(element.get("x", "")) + float(element.get("width", ""))
        else:
            x = float(element.get("x", ""))
        expected = origin + float(fraction) / span * length
        assert abs(x - expected) <= 1, (value, x, expected)
        checked += 1
    return checked


@pytest.mark.parametrize(
    ("reference", "played"),
    [
        ("1/2", "2/3"),
        ("2/3", "5/6"),
        ("9/12", "3/6"),
        ("1/3", "1/6"),
        ("2/3", "3/2"),
        ("8/48", "1/6"),
    ],
)
def test_every_tick_and_point_is_to_scale(reference: str, played: str) -> None:
    svg = pair_svg(reference, played, label=f"{reference} et {played}")
    assert check_scale(svg) > 6
    root = ElementTree.fromstring(svg)
    points = list(root.iter(f"{SVG}circle"))
    assert [p.get("data-value") for p in points] == [reference, played]
    # Both denominators mark the line: ticks above for the first, below for the second.
    ticks = {e.get("data-value") for e in root.iter(f"{SVG}line") if e.get("class") == "tick"}
    assert "1/" + reference.split("/")[1] in ticks and "1/" + played.split("/")[1] in ticks


def test_the_line_reaches_the_whole_number_above_both() -> None:
    root = ElementTree.fromstring(pair_svg("2/3", "3/2", label="x"))
    assert root.get("data-span") == "2"
    wholes = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "whole"]
    assert wholes == ["0", "1", "2"]


def test_the_picture_is_self_contained_and_escaped() -> None:
    svg = pair_svg("1/2", "2/4", label='<script>"x"</script>')
    assert "<script>" not in svg and "href" not in svg and "url(" not in svg
    assert 'role="img"' in svg


@pytest.mark.parametrize("bad", ["1/0", "a/b", "-1/2", "3"])
def test_a_value_that_is_not_a_card_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        pair_svg(bad, "1/2", label="x")
