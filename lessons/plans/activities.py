"""The small, vetted set of teacher-led activities a group plan offers (15-20 minutes each).

Written in the product's own words, French first. Each names its material, three or four steps
and the principle the teacher says at the end (after the comparison, not before: children who
compare first and hear the principle after learn more from the comparison). Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

Text = dict[str, str]


@dataclass(frozen=True)
class Activity:
    """One activity a teacher leads with a small group."""

    key: str
    title: Text
    minutes: str
    material: Text
    steps: tuple[Text, ...]
    principle: Text

    def text(self, lang: str) -> dict[str, object]:
        """Return the activity's words in one language (French when it has no such language)."""
        pick = "en" if lang == "en" else "fr"
        return {
            "key": self.key,
            "title": self.title[pick],
            "minutes": self.minutes,
            "material": self.material[pick],
            "steps": [step[pick] for step in self.steps],
            "principle": self.principle[pick],
        }


STRIP: Final = Activity(
    key="strip",
    title={"fr": "La bande unité pliée", "en": "The folded unit strip"},
    minutes="15-20",
    material={
        "fr": "Deux bandes de papier de même longueur par enfant, un crayon.",
        "en": "Two paper strips of the same length per child, a pencil.",
    },
    steps=(
        {
            "fr": "Chacun plie une bande en 2 et colorie une part : c’est 1/2 de la bande.",
            "en": "Each child folds a strip in 2 and shades one part: that is 1/2 of the strip.",
        },
        {
            "fr": "On plie la bande encore en 2 : combien de parts maintenant ? Combien sont "
            "coloriées ? On écrit 2/4 sous 1/2.",
            "en": "Fold the strip in 2 again: how many parts now? How many are shaded? Write "
            "2/4 under 1/2.",
        },
        {
            "fr": "On pose la deuxième bande, pliée et coloriée comme la paire fausse du groupe "
            "(dessinée ci-dessous), sous la première : les parties coloriées ont-elles la même "
            "longueur ?",
            "en": "Lay the second strip, folded and shaded like the group's wrong pair (drawn "
            "below), under the first: are the shaded parts the same length?",
        },
        {
            "fr": "Chaque enfant explique à voix haute pourquoi 1/2 et 2/4 ont la même longueur.",
            "en": "Each child explains aloud why 1/2 and 2/4 are the same length.",
        },
    ),
    principle={
        "fr": "Plier encore en 2 double le nombre de parts et le nombre de parts coloriées : "
        "la longueur ne change pas. Deux fractions égales ont la même longueur sur la bande.",
        "en": "Folding in 2 again doubles the number of parts and the number of shaded parts: "
        "the length stays the same. Two equal fractions have the same length on the strip.",
    },
)

LINE: Final = Activity(
    key="line",
    title={"fr": "Deux fractions sur une droite graduée", "en": "Two fractions on one number line"},
    minutes="15-20",
    material={
        "fr": "La feuille du groupe (droites graduées ci-dessous), un crayon de couleur.",
        "en": "The group's sheet (number lines below), a coloured pencil.",
    },
    steps=(
        {
            "fr": "On lit la droite : de 0 à 1, graduée en parts égales au-dessus et au-dessous.",
            "en": "Read the line: from 0 to 1, marked in equal parts above and below.",
        },
        {
            "fr": "Chaque enfant place la première fraction de la paire au-dessus, la deuxième "
            "au-dessous, en comptant les graduations.",
            "en": "Each child places the pair's first fraction above, the second below, "
            "counting the marks.",
        },
        {
            "fr": "Les deux points sont-ils au même endroit ? Si non, laquelle est la plus "
            "grande ? On compare avec la voisine ou le voisin.",
            "en": "Are the two points at the same place? If not, which is larger? Compare "
            "with your neighbour.",
        },
        {
            "fr": "Chacun dit en une phrase ce que la droite montre.",
            "en": "Each child says in one sentence what the line shows.",
        },
    ),
    principle={
        "fr": "Une fraction est un nombre : un seul point sur la droite. Deux fractions sont "
        "égales quand elles tombent au même endroit.",
        "en": "A fraction is a number: one point on the line. Two fractions are equal when "
        "they fall at the same place.",
    },
)

PAIRS: Final = Activity(
    key="pairs",
    title={"fr": "Une paire juste, une paire fausse", "en": "A right pair and a wrong pair"},
    minutes="15-20",
    material={
        "fr": "La feuille du groupe : une paire juste et une paire fausse, dessinées à l’échelle.",
        "en": "The group's sheet: a right pair and a wrong pair, drawn to scale.",
    },
    steps=(
        {
            "fr": "On montre les deux paires côte à côte, sans dire laquelle est juste.",
            "en": "Show the two pairs side by side, without saying which is right.",
        },
        {
            "fr": "Par deux, les enfants cherchent ce qui est pareil et ce qui change entre "
            "les deux paires (les bandes, les points sur la droite).",
            "en": "In twos, the children look for what is the same and what changes between "
            "the two pairs (the strips, the points on the line).",
        },
        {
            "fr": "Chacun dit laquelle est juste et pourquoi, en montrant le dessin.",
            "en": "Each child says which one is right and why, pointing at the drawing.",
        },
        {
            "fr": "Ensuite seulement, l’enseignant dit le principe ci-dessous.",
            "en": "Only then does the teacher say the principle below.",
        },
    ),
    principle={
        "fr": "Pour garder une fraction égale, on multiplie (ou on divise) le haut et le bas "
        "par le même nombre ; ajouter le même nombre, ou changer un seul des deux, donne une "
        "autre taille.",
        "en": "To keep a fraction equal, multiply (or divide) the top and the bottom by the "
        "same number; adding the same number, or changing only one of them, gives another "
        "size.",
    },
)

ACTIVITIES: Final[dict[str, Activity]] = {a.key: a for a in (STRIP, LINE, PAIRS)}

# The activity a plan proposes first, per rule: the one whose picture answers the habit.
BY_RULE: Final[dict[str, str]] = {
    "M0": "line",
    "M1": "line",
    "M2": "strip",
    "M2a": "strip",
    "M3": "pairs",
    "M3a": "pairs",
    "M4": "pairs",
    "M5": "line",
    "M6": "strip",
    "M7": "strip",
    "M8": "line",
    "M9": "strip",
    "M10": "line",
}
DEFAULT_ACTIVITY: Final = "pairs"


def activity_for(rule: str) -> Activity:
    """Return the activity proposed first for a rule."""
    return ACTIVITIES[BY_RULE.get(rule, DEFAULT_ACTIVITY)]
