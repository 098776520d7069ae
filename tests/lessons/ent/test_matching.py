"""ENT pupils are matched to the class list as a teacher would (lessons/ent/matching.py)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from lessons.ent.matching import (
    EntPupil,
    Homonyms,
    Kind,
    Matching,
    Proposal,
    Reason,
    RosterPupil,
    class_name_fits,
    fold,
    match,
    name_key,
)


def _match(ent: dict[str, str], roster: dict[int, str]) -> Matching[int]:
    return match(
        [EntPupil(ent_id, name) for ent_id, name in ent.items()],
        [RosterPupil(key, name) for key, name in roster.items()],
    )


def _pairs(result: Matching[int]) -> dict[str, tuple[int, Kind, Reason]]:
    return {p.ent_id: (p.key, p.kind, p.reason) for p in result.proposals}


# Scripted cases: French names as ENTs and teachers write them.


def test_name_order_case_and_accents_do_not_matter_for_an_exact_match() -> None:
    result = _match(
        {"e1": "BENALI Inès", "e2": "Maël DUPONT", "e3": "DE LA FONTAINE Jean-Baptiste"},
        {1: "Ines Benali", 2: "mael dupont", 3: "Jean Baptiste de La Fontaine"},
    )
    assert _pairs(result) == {
        "e1": (1, Kind.EXACT, Reason.SAME_NAME),
        "e2": (2, Kind.EXACT, Reason.SAME_NAME),
        "e3": (3, Kind.EXACT, Reason.SAME_NAME),
    }
    assert result.homonyms == () and result.ent_unmatched == () and result.roster_unmatched == ()


def test_a_surname_initial_is_a_near_match() -> None:
    result = _match({"e1": "MARTIN Léa", "e2": "Lucas BERNARD"}, {1: "Léa M.", 2: "Lucas B"})
    assert _pairs(result) == {
        "e1": (1, Kind.NEAR, Reason.ABBREVIATED),
        "e2": (2, Kind.NEAR, Reason.ABBREVIATED),
    }


def test_a_wrong_initial_is_no_match() -> None:
    result = _match({"e1": "MARTIN Léa"}, {1: "Léa D."})
    assert result.proposals == () and result.ent_unmatched == ("e1",)


def test_abbreviated_first_names_and_particles() -> None:
    result = _match(
        {"e1": "DE LA FONTAINE Jean-Baptiste", "e2": "N'DIAYE Awa"},
        {1: "J.-B. de la Fontaine", 2: "Awa N."},
    )
    assert _pairs(result) == {
        "e1": (1, Kind.NEAR, Reason.ABBREVIATED),
        "e2": (2, Kind.NEAR, Reason.ABBREVIATED),
    }


def test_one_typo_in_a_long_word_is_a_near_match() -> None:
    result = _match(
        {"e1": "GARNIER Mathis", "e2": "Chloé DUBOIS"},
        {1: "Matis Garnier", 2: "Chloé Dubios"},  # a letter dropped; two letters swapped
    )
    assert _pairs(result) == {
        "e1": (1, Kind.NEAR, Reason.TYPO),
        "e2": (2, Kind.NEAR, Reason.TYPO),
    }


def test_short_first_names_one_letter_apart_are_two_children() -> None:
    result = _match({"e1": "Léo PETIT"}, {1: "Léa Petit"})
    assert result.proposals == () and result.roster_unmatched == (1,)


def test_two_typos_are_no_match() -> None:
    result = _match({"e1": "GARNIER Mathis"}, {1: "Matis Garnyer"})
    assert result.proposals == ()


def test_two_neighbouring_letters_changed_are_no_swap() -> None:
    # "Louna" -> "Laona": the o moved one place, the u became an a: two edits, not a swap.
    result = _match({"e1": "DUPONT Laona"}, {1: "Louna Dupont"})
    assert result.proposals == () and result.roster_unmatched == (1,)
    # The swap itself is one typo.
    assert _pairs(_match({"e1": "DUPONT Luona"}, {1: "Louna Dupont"}))["e1"] == (
        1,
        Kind.NEAR,
        Reason.TYPO,
    )


def test_a_first_name_alone_matches_when_unique_in_the_class() -> None:
    result = _match({"e1": "DUPONT Maël", "e2": "ROUX Zoé"}, {1: "Maël", 2: "Zoé R."})
    assert _pairs(result)["e1"] == (1, Kind.NEAR, Reason.FEWER_WORDS)


def test_a_first_name_alone_does_not_match_when_another_pupil_shares_it() -> None:
    result = _match({"e1": "BERNARD Lucas"}, {1: "Lucas", 2: "Lucas B."})
    # "Lucas" is not unique in the list: only "Lucas B." is proposed.
    assert _pairs(result) == {"e1": (2, Kind.NEAR, Reason.ABBREVIATED)}
    assert result.roster_unmatched == (1,)


def test_two_lea_m_are_homonyms_for_the_teacher() -> None:
    result = _match({"e1": "MARTIN Léa", "e2": "MOREAU Léa"}, {1: "Léa M.", 2: "Tom"})
    assert result.proposals == ()
    assert result.homonyms == (Homonyms(ent_ids=("e1", "e2"), keys=(1,)),)
    assert result.roster_unmatched == (2,)


def test_two_ent_pupils_with_the_same_name_are_homonyms_even_when_exact() -> None:
    result = _match({"e1": "MARTIN Léa", "e2": "Léa MARTIN"}, {1: "Léa Martin"})
    assert result.proposals == ()
    assert result.homonyms == (Homonyms(ent_ids=("e1", "e2"), keys=(1,)),)


def test_one_ent_pupil_matching_two_list_names_is_a_homonym() -> None:
    result = _match({"e1": "MARTIN Léa"}, {1: "Léa M.", 2: "Léa Ma."})
    assert result.homonyms == (Homonyms(ent_ids=("e1",), keys=(1, 2)),)


def test_distinct_abbreviations_tell_two_lea_apart() -> None:
    result = _match({"e1": "MARTIN Léa", "e2": "MOREAU Léa"}, {1: "Léa Ma.", 2: "Léa Mo."})
    assert _pairs(result) == {
        "e1": (1, Kind.NEAR, Reason.ABBREVIATED),
        "e2": (2, Kind.NEAR, Reason.ABBREVIATED),
    }


def test_an_exact_match_outranks_near_ones() -> None:
    # Louis and Louise are one typo apart, but each has an exact match.
    result = _match(
        {"e1": "MARTIN Louis", "e2": "MARTIN Louise"}, {1: "Louise Martin", 2: "Louis Martin"}
    )
    assert _pairs(result) == {
        "e1": (2, Kind.EXACT, Reason.SAME_NAME),
        "e2": (1, Kind.EXACT, Reason.SAME_NAME),
    }


def test_ligatures_and_compound_names_fold() -> None:
    assert fold("CŒUR Chloé-Anaïs") == "coeur chloe anais"
    assert name_key("Jean–Baptiste  DE LA FONTAINE") == name_key("de la fontaine jean baptiste")


def test_ent_class_names_fit_with_their_decorations() -> None:
    assert class_name_fits(["0123456X$CM2 B"], ["CM2-B"])
    assert class_name_fits(["CM2B##CM2 B"], ["cm2 b"])
    assert class_name_fits(["6e A"], ["6E A"])
    assert not class_name_fits(["0123456X$CM2 A"], ["CM2 B"])
    assert not class_name_fits([], ["CM2 B"])
    assert not class_name_fits(["CM2 B"], [""])


def test_each_pupil_is_taken_once() -> None:
    result = match(
        [EntPupil("e1", "MARTIN Léa"), EntPupil("e1", "Somebody Else")],
        [RosterPupil(1, "Léa Martin"), RosterPupil(1, "Other")],
    )
    assert result.proposals == (Proposal("e1", 1, Kind.EXACT, Reason.SAME_NAME),)


# Properties.

_letters = st.sampled_from(list("abcdeéèêëiïîoôuüùyçñlmnprstvzABÉÈLMNOÇÆŒßæœ"))
_word = st.text(_letters, min_size=1, max_size=8)
_name = st.lists(_word, min_size=1, max_size=4).map(" ".join)
_messy = st.text(
    st.sampled_from(list("aeéÉiïLlMm  -'.’ŒœßÅ\u0301\u00a0\tx")), min_size=0, max_size=20
)


@given(st.one_of(_name, _messy, st.text(max_size=20)))
def test_folding_is_idempotent(name: str) -> None:
    assert fold(fold(name)) == fold(name)
    assert name_key(name_key(name)) == name_key(name)


@given(_name)
def test_a_name_matches_itself_in_any_word_order_and_case(name: str) -> None:
    reordered = " ".join(reversed(name.split())).upper()
    result = _match({"e1": reordered}, {1: name})
    assert _pairs(result) == {"e1": (1, Kind.EXACT, Reason.SAME_NAME)}


_ent_lists = st.dictionaries(st.sampled_from([f"e{i}" for i in range(8)]), _name, max_size=8)
_roster_lists = st.dictionaries(st.integers(0, 7), _name, max_size=8)


@settings(max_examples=200, deadline=None)
@given(_ent_lists, _roster_lists)
def test_every_pupil_is_in_exactly_one_place_and_never_proposed_twice(
    ent: dict[str, str], roster: dict[int, str]
) -> None:
    result = _match(ent, roster)
    ent_places = Counter(
        [p.ent_id for p in result.proposals]
        + [e for group in result.homonyms for e in group.ent_ids]
        + list(result.ent_unmatched)
    )
    roster_places = Counter(
        [p.key for p in result.proposals]
        + [k for group in result.homonyms for k in group.keys]
        + list(result.roster_unmatched)
    )
    assert ent_places == Counter(list(ent))
    assert roster_places == Counter(list(roster))


@settings(max_examples=200, deadline=None)
@given(_ent_lists, _roster_lists)
def test_a_proposal_is_never_a_homonym(ent: dict[str, str], roster: dict[int, str]) -> None:
    result = _match(ent, roster)
    for proposal in result.proposals:
        # No other ENT pupil has the list pupil's name, and no other list pupil the ENT one's.
        ent_key, roster_key = name_key(ent[proposal.ent_id]), name_key(roster[proposal.key])
        if proposal.kind is Kind.EXACT:
            assert ent_key == roster_key
        others_ent = [name_key(n) for e, n in ent.items() if e != proposal.ent_id]
        others_roster = [name_key(n) for k, n in roster.items() if k != proposal.key]
        assert roster_key not in others_ent
        assert ent_key not in others_roster


@settings(max_examples=100, deadline=None)
@given(_name, st.integers(2, 4))
def test_same_named_ent_pupils_are_never_proposed(name: str, copies: int) -> None:
    ent = {f"e{i}": name.upper() if i % 2 else name for i in range(copies)}
    result = _match(ent, {1: name, 2: "Zz Qq"})
    assert all(p.key != 1 for p in result.proposals)
    assert result.homonyms == (Homonyms(ent_ids=tuple(ent), keys=(1,)),)


@settings(max_examples=100, deadline=None)
@given(_ent_lists, _roster_lists)
def test_the_result_does_not_depend_on_the_input_order(
    ent: dict[str, str], roster: dict[int, str]
) -> None:
    forward = _match(ent, roster)
    backward = _match(dict(reversed(ent.items())), dict(reversed(roster.items())))
    assert set(forward.proposals) == set(backward.proposals)
    assert {(frozenset(g.ent_ids), frozenset(g.keys)) for g in forward.homonyms} == {
        (frozenset(g.ent_ids), frozenset(g.keys)) for g in backward.homonyms
    }
