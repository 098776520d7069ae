"""Describe every diagnosis rule in French and English, for the "how we diagnose" page.

Each rule carries its names, a note for teachers, a note for students and families, its
detection rule as text, what it rests on and how far we trust it. Bump RULES_VERSION whenever
a detection rule or a threshold changes: every logged attempt keeps the version it was tagged
with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Final

RULES_VERSION: Final = "2026.11-1"

# What a rule rests on: published research, an Eedi expert tag, or our own inference.
BASIS_LABELS: Final[dict[str, dict[str, str]]] = {
    "research": {"fr": "recherche publiée", "en": "published research"},
    "eedi": {"fr": "étiquette d’experts Eedi", "en": "Eedi expert tag"},
    "inference": {"fr": "notre déduction", "en": "our inference"},
}
CONFIDENCE_LABELS: Final[dict[str, dict[str, str]]] = {
    "high": {"fr": "élevée", "en": "high"},
    "medium": {"fr": "moyenne", "en": "medium"},
    "low": {"fr": "faible", "en": "low"},
}

Text = dict[str, str]
Pair = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Rule:
    """One diagnosis rule: what it means, how it is detected, how far we trust it."""

    id: str
    name: Text
    teacher: Text
    family: Text
    try_this: Text
    detection: str
    claim: str
    examples: tuple[Pair, ...]
    basis: tuple[str, ...]
    confidence: str
    part_of: str | None = None

    def as_dict(self) -> dict[str, object]:
        """Return the rule as plain JSON-ready data (fractions as "a/b")."""
        data = asdict(self)
        data["examples"] = [f"{r[0]}/{r[1]} → {p[0]}/{p[1]}" for r, p in self.examples]
        data["basis"] = list(self.basis)
        return data


RULES: Final[tuple[Rule, ...]] = (
    Rule(
        id="M0",
        name={"fr": "Biais des nombres entiers", "en": "Whole-number bias"},
        teacher={
            "fr": "Lit une fraction comme deux nombres entiers séparés au lieu d’un seul "
            "nombre. Signalé dès que M1, M2, M3, M4, M5 ou M7 s’applique : il les regroupe "
            "dans la vue de la classe.",
            "en": "Reads a fraction as two separate whole numbers instead of one number. "
            "Flagged whenever M1, M2, M3, M4, M5 or M7 fits: it groups them in the class "
            "view.",
        },
        family={
            "fr": "Traite parfois le haut et le bas d’une fraction comme deux nombres à part. "
            "Une fraction est un seul nombre : une taille, un point sur la droite graduée.",
            "en": "Sometimes treats the top and bottom of a fraction as two separate numbers. "
            "A fraction is one number: a size, a point on the number line.",
        },
        try_this={
            "fr": "Placer les deux fractions sur une même droite graduée.",
            "en": "Place both fractions on the same number line.",
        },
        detection="any of M1, M2, M3, M4, M5, M7 fits",
        claim="equal",
        examples=(((1, 2), (2, 3)), ((4, 6), (4, 12))),
        basis=("research", "inference"),
        confidence="high",
    ),
    Rule(
        id="M1",
        name={
            "fr": "Même nombre ajouté en haut et en bas (écart)",
            "en": "Same number added to top and bottom (gap thinking)",
        },
        teacher={
            "fr": "Fabrique une fraction « égale » en ajoutant ou en retirant le même nombre "
            "en haut et en bas (1/2 → 2/3), ou juge l’égalité au nombre de parts qui manquent "
            "pour faire 1. La paire seule ne sépare pas ces deux lectures : les deux sont "
            "affichées.",
            "en": "Makes an 'equal' fraction by adding or taking away the same number on top "
            "and bottom (1/2 → 2/3), or judges equality by how many pieces are missing to make "
            "1. The pair alone cannot separate these two readings: both are shown.",
        },
        family={
            "fr": "Ajoute le même nombre en haut et en bas. Pour garder une fraction égale, on "
            "multiplie (ou on divise) le haut et le bas par le même nombre : 1/2 = 2/4, pas 2/3.",
            "en": "Adds the same number to the top and the bottom. To keep a fraction equal, "
            "multiply (or divide) top and bottom by the same number: 1/2 = 2/4, not 2/3.",
        },
        try_this={
            "fr": "Bandes de fractions : poser 1/2 et 2/3 l’une sous l’autre.",
            "en": "Fraction strips: lay 1/2 and 2/3 one under the other.",
        },
        detection="c − a = d − b ≠ 0",
        claim="equal",
        examples=(((1, 2), (2, 3)), ((2, 3), (5, 6)), ((9, 12), (3, 6))),
        basis=("research", "eedi"),
        confidence="high",
        part_of="M0",
    ),
    Rule(
        id="M2",
        name={"fr": "Même numérateur, donc égales", "en": "Same numerator, so equal"},
        teacher={
            "fr": "Considère égales deux fractions de même numérateur, quels que soient les "
            "dénominateurs : compte les parts sans regarder leur taille.",
            "en": "Takes two fractions with the same numerator as equal, whatever the "
            "denominators: counts the pieces without looking at their size.",
        },
        family={
            "fr": "A joué 1/3 et 1/6 comme si elles étaient égales, peut-être parce qu’elles ont "
            "1 en haut. Le nombre du "
            "bas donne la taille des parts : un sixième est plus petit qu’un tiers.",
            "en": "Played 1/3 and 1/6 as if they were equal, perhaps because both have 1 on "
            "top. The bottom number "
            "gives the size of the pieces: a sixth is smaller than a third.",
        },
        try_this={
            "fr": "Plier une bande en 3 et une autre en 6, puis comparer une part de chaque.",
            "en": "Fold one strip into 3 and another into 6, then compare one piece of each.",
        },
        detection="a = c and b ≠ d",
        claim="equal",
        examples=(((1, 3), (1, 6)), ((2, 3), (2, 12)), ((1, 2), (1, 3))),
        basis=("eedi", "research"),
        confidence="medium",
        part_of="M0",
    ),
    Rule(
        id="M2a",
        name={"fr": "Seul le dénominateur a changé", "en": "Only the denominator changed"},
        teacher={
            "fr": "Multiplie ou divise le dénominateur mais oublie le numérateur "
            "(4/6 → 4/12). Cas particulier de M2.",
            "en": "Multiplies or divides the denominator but forgets the numerator "
            "(4/6 → 4/12). A special case of M2.",
        },
        family={
            "fr": "Change seulement le nombre du bas. Quand on double le bas, il faut aussi "
            "doubler le haut : 4/6 = 8/12.",
            "en": "Changes only the bottom number. When the bottom is doubled, the top must be "
            "doubled too: 4/6 = 8/12.",
        },
        try_this={
            "fr": "Couper chaque part en deux sur une bande : le nombre de parts prises double "
            "aussi.",
            "en": "Cut every piece of a strip in two: the number of pieces taken doubles too.",
        },
        detection="a = c and (d is a multiple of b or b is a multiple of d)",
        claim="equal",
        examples=(((4, 6), (4, 12)),),
        basis=("eedi",),
        confidence="medium",
        part_of="M2",
    ),
    Rule(
        id="M3",
        name={"fr": "Même dénominateur, donc égales", "en": "Same denominator, so equal"},
        teacher={
            "fr": "Dit que deux fractions de même dénominateur sont égales (5/12 et 9/12). Ici "
            "une telle carte se joue avec la règle « même dénominateur » : cela ne se voit que "
            "si l’élève choisit « égale », et peut venir d’une confusion entre les deux règles "
            "du jeu plutôt que d’une croyance.",
            "en": "Says two fractions with the same denominator are equal (5/12 and 9/12). In "
            "this game such a card is played under the same-denominator rule: this only shows "
            "when the student picks 'equal', and may be a mix-up of the two game rules rather "
            "than a belief.",
        },
        family={
            "fr": "A joué 5/12 et 9/12 comme si elles étaient égales, peut-être parce qu’elles "
            "ont le même nombre en bas. "
            "Même nombre en bas : des parts de même taille. Le haut dit combien : 9 parts, "
            "c’est plus que 5.",
            "en": "Played 5/12 and 9/12 as if they were equal, perhaps because the bottom "
            "numbers are the same. Same bottom: pieces of the same size. The top says how many: "
            "9 pieces are more than 5.",
        },
        try_this={
            "fr": "Colorier 5 douzièmes puis 9 douzièmes sur deux bandes de 12.",
            "en": "Shade 5 twelfths, then 9 twelfths, on two strips of 12.",
        },
        detection='b = d and a ≠ c, claimed as "equal"',
        claim="equal",
        examples=(((5, 12), (9, 12)),),
        basis=("eedi", "inference"),
        confidence="medium",
        part_of="M0",
    ),
    Rule(
        id="M3a",
        name={"fr": "Seul le numérateur a changé", "en": "Only the numerator changed"},
        teacher={
            "fr": "Multiplie ou divise le numérateur mais garde le dénominateur (1/6 → 2/6). "
            "Image miroir de M2a ; cas particulier de M3.",
            "en": "Multiplies or divides the numerator but keeps the denominator (1/6 → 2/6). "
            "The mirror image of M2a; a special case of M3.",
        },
        family={
            "fr": "Change seulement le nombre du haut. 2/6, c’est deux fois 1/6. Pour rester "
            "égal, on change aussi le bas : 1/6 = 2/12.",
            "en": "Changes only the top number. 2/6 is twice 1/6. To stay equal, change the "
            "bottom too: 1/6 = 2/12.",
        },
        try_this={
            "fr": "Comparer 1/6 et 2/6 sur une même bande de 6.",
            "en": "Compare 1/6 and 2/6 on the same strip of 6.",
        },
        detection="M3 fits and (c is a multiple of a or a is a multiple of c)",
        claim="equal",
        examples=(((1, 6), (2, 6)),),
        basis=("inference",),
        confidence="low",
        part_of="M3",
    ),
    Rule(
        id="M4",
        name={
            "fr": "Le multiplicateur écrit au numérateur",
            "en": "Multiplier written as the numerator",
        },
        teacher={
            "fr": "Trouve le facteur entre les dénominateurs mais l’écrit comme nouveau "
            "numérateur (4/6 → 2/12 : 6 × 2 = 12, écrit 2).",
            "en": "Finds the factor between the denominators but writes it as the new "
            "numerator (4/6 → 2/12: 6 × 2 = 12, writes 2).",
        },
        family={
            "fr": "Trouve bien le « fois 2 » mais écrit le 2 en haut. Il faut multiplier le "
            "haut aussi : 4/6 = 8/12.",
            "en": "Finds the right 'times 2' but writes the 2 on top. The top must be "
            "multiplied too: 4/6 = 8/12.",
        },
        try_this={
            "fr": "Écrire la flèche « × 2 » en haut et en bas de la fraction.",
            "en": "Write the '× 2' arrow on both the top and the bottom of the fraction.",
        },
        detection="d is a multiple of b, d ÷ b ≥ 2, c = d ÷ b and a ≥ 2",
        claim="equal",
        examples=(((4, 6), (2, 12)),),
        basis=("eedi",),
        confidence="medium",
        part_of="M0",
    ),
    Rule(
        id="M5",
        name={
            "fr": "Facteurs différents en haut et en bas",
            "en": "Different factors on top and bottom",
        },
        teacher={
            "fr": "Multiplie (ou divise) numérateur et dénominateur, mais pas par le même "
            "nombre (2/3 → 6/12 : × 3 en haut, × 4 en bas). Beaucoup de paires de cartes "
            "collent à cette règle par hasard : il faut plus d’indices.",
            "en": "Multiplies (or divides) numerator and denominator, but not by the same "
            "number (2/3 → 6/12: × 3 on top, × 4 below). Many card pairs fit this rule by "
            "chance: it needs more evidence.",
        },
        family={
            "fr": "Multiplie le haut et le bas par des nombres différents. Pour rester égal, "
            "c’est le même nombre : 2/3 = 8/12 (× 4 et × 4).",
            "en": "Multiplies top and bottom by different numbers. To stay equal, use the same "
            "number: 2/3 = 8/12 (× 4 and × 4).",
        },
        try_this={
            "fr": "Écrire le facteur à côté du haut et du bas et vérifier qu’ils sont égaux.",
            "en": "Write the factor next to the top and the bottom and check they match.",
        },
        detection="a ≥ 2, c = a × m and d = b × n with m ≠ n, m > 1, n > 1; "
        "or the same with the two cards swapped (dividing)",
        claim="equal",
        examples=(((2, 3), (6, 12)), ((9, 12), (3, 6))),
        basis=("eedi", "inference"),
        confidence="low",
        part_of="M0",
    ),
    Rule(
        id="M6",
        name={"fr": "La partie qui reste (complément)", "en": "The part left over (complement)"},
        teacher={
            "fr": "Joue la fraction qui complète la carte du dessus pour faire 1 (1/6 → "
            "10/12), comme si « l’autre partie » était la même. Confiance faible : cela peut "
            "être le hasard.",
            "en": "Plays the fraction that completes the top card to a whole (1/6 → 10/12), "
            "as if 'the other part' were the same. Low confidence: it may be chance.",
        },
        family={
            "fr": "Choisit la partie qui reste au lieu de la même partie : 1/6 et 10/12 font "
            "1 à elles deux. La même partie, c’est 2/12.",
            "en": "Chose the part left over instead of the same part: 1/6 and 10/12 make a "
            "whole together. The same part is 2/12.",
        },
        try_this={
            "fr": "Colorier 1/6 d’une bande et nommer séparément la partie coloriée et le reste.",
            "en": "Shade 1/6 of a strip and name the shaded part and the rest separately.",
        },
        detection="a/b + c/d = 1 (a·d + b·c = b·d)",
        claim="equal",
        examples=(((1, 6), (10, 12)),),
        basis=("inference",),
        confidence="low",
    ),
    Rule(
        id="M7",
        name={"fr": "Lecture partie-partie", "en": "Part-to-part reading"},
        teacher={
            "fr": "Lit a/b comme « a parts pour b − a autres parts » (1/3 lu 1 pour 2, soit "
            "1/2), puis joue une fraction égale à cette lecture (3/6). Confiance faible.",
            "en": "Reads a/b as 'a pieces for every b − a other pieces' (1/3 read as 1 to 2, "
            "that is 1/2), then plays a fraction equal to that reading (3/6). Low confidence.",
        },
        family={
            "fr": "A lu 1/3 comme « 1 part à côté de 2 parts », ce qui fait 1/2. Mais 1/3, "
            "c’est 1 part sur 3 en tout.",
            "en": "Read 1/3 as '1 piece next to 2 pieces', which makes 1/2. But 1/3 means 1 "
            "piece out of 3 in all.",
        },
        try_this={
            "fr": "Compter toutes les parts de la bande, pas seulement celles qui restent.",
            "en": "Count all the pieces of the strip, not only the ones left.",
        },
        detection="c/d = a/(b − a), or a/b = c/(d − c)",
        claim="equal",
        examples=(((1, 3), (3, 6)),),
        basis=("inference",),
        confidence="low",
        part_of="M0",
    ),
    Rule(
        id="M8",
        name={"fr": "Fraction retournée", "en": "Flipped fraction (inversion)"},
        teacher={
            "fr": "Joue la fraction inverse, haut et bas échangés (2/3 → 3/2, 4/6 → 3/2). "
            "Possible seulement avec des cartes plus grandes que 1.",
            "en": "Plays the reciprocal, top and bottom swapped (2/3 → 3/2, 4/6 → 3/2). Only "
            "possible with cards greater than 1.",
        },
        family={
            "fr": "A échangé le haut et le bas. 3/2 est plus grand que 1, 2/3 est plus petit "
            "que 1 : elles ne sont pas égales.",
            "en": "Swapped the top and the bottom. 3/2 is more than 1, 2/3 is less than 1: "
            "they are not equal.",
        },
        try_this={
            "fr": "Placer 2/3 et 3/2 sur une droite graduée de 0 à 2.",
            "en": "Place 2/3 and 3/2 on a number line from 0 to 2.",
        },
        detection="a·c = b·d and a ≠ b (c/d is b/a)",
        claim="equal",
        examples=(((2, 3), (3, 2)), ((4, 6), (3, 2))),
        basis=("research", "eedi"),
        confidence="low",
    ),
    Rule(
        id="M9",
        name={"fr": "Oublie la partie entière", "en": "Drops the whole part"},
        teacher={
            "fr": "Ne garde d’une fraction plus grande que 1 que ce qui dépasse l’entier "
            "(9/6 = 1 + 3/6, pris pour 3/6 = 1/2).",
            "en": "Keeps only what an improper fraction has beyond its wholes (9/6 = 1 + 3/6, "
            "taken as 3/6 = 1/2).",
        },
        family={
            "fr": "9/6, c’est 1 entier et encore 3/6. L’entier compte aussi : 9/6 est plus "
            "grand que 1, 1/2 est plus petit.",
            "en": "9/6 is 1 whole and 3/6 more. The whole counts too: 9/6 is more than 1, 1/2 "
            "is less.",
        },
        try_this={
            "fr": "Dessiner 9/6 avec deux bandes de 6.",
            "en": "Draw 9/6 with two strips of 6.",
        },
        detection="c > d and c/d minus its whole part = a/b; or the same with the two cards "
        "swapped",
        claim="equal",
        examples=(((1, 2), (9, 6)),),
        basis=("inference",),
        confidence="low",
    ),
    Rule(
        id="M10",
        name={"fr": "Même écart à 1, de part et d’autre", "en": "Same gap to 1, on either side"},
        teacher={
            "fr": "Voit deux fractions comme égales parce qu’elles sont à la même distance "
            "de 1 en parts, l’une en dessous et l’autre au-dessus (2/3 : 1 part de moins "
            "que 1 ; 7/6 : 1 part de plus).",
            "en": "Sees two fractions as equal because they are the same number of pieces "
            "away from 1, one below and one above (2/3: 1 piece short of 1; 7/6: 1 piece "
            "over).",
        },
        family={
            "fr": "2/3 a une part de moins que 1, 7/6 une part de plus : elles sont de chaque "
            "côté de 1, donc pas égales.",
            "en": "2/3 is one piece less than 1, 7/6 one piece more: they sit on either side "
            "of 1, so they are not equal.",
        },
        try_this={
            "fr": "Placer les deux fractions de part et d’autre de 1 sur une droite graduée.",
            "en": "Place both fractions on either side of 1 on a number line.",
        },
        detection="|b − a| = |d − c| and b − a ≠ d − c",
        claim="equal",
        examples=(((2, 3), (7, 6)), ((11, 12), (7, 6))),
        basis=("inference",),
        confidence="low",
    ),
    Rule(
        id="D1",
        name={
            "fr": "Dénominateurs différents pris pour les mêmes",
            "en": "Different denominators taken as the same",
        },
        teacher={
            "fr": "A choisi la règle « même dénominateur » pour une carte dont le dénominateur "
            "est différent. Règle ajoutée par nous : confusion entre les deux règles du jeu "
            "(miroir de M3), mots numérateur et dénominateur inversés, ou carte mal lue. Son "
            "taux de hasard est la règle elle-même : elle peut être « émergente » ou "
            "« résolue », jamais « probable ».",
            "en": "Picked the same-denominator rule for a card whose denominator differs. A "
            "rule of our own: a mix-up of the two game rules (mirror of M3), the words "
            "numerator and denominator swapped, or a misread card. Its chance rate is the "
            "rule itself: it can be 'emerging' or 'resolved', never 'likely'.",
        },
        family={
            "fr": "A dit « même dénominateur » alors que les nombres du bas sont différents. "
            "Le dénominateur, c’est le nombre du bas.",
            "en": "Said 'same denominator' but the bottom numbers are different. The "
            "denominator is the bottom number.",
        },
        try_this={
            "fr": "Entourer le dénominateur des deux cartes avant de jouer.",
            "en": "Circle the denominator on both cards before playing.",
        },
        detection='b ≠ d, claimed as "denominator"',
        claim="denominator",
        examples=(((4, 6), (10, 12)),),
        basis=("inference",),
        confidence="low",
    ),
    Rule(
        id="U",
        name={"fr": "Non classée", "en": "Unclassified"},
        teacher={
            "fr": "Aucune règle ne colle : étourderie, essai au hasard, ou erreur que nous ne "
            "connaissons pas encore. À regarder si elle revient.",
            "en": "No rule fits: a slip, a guess, or a mistake we do not know yet. Worth a "
            "look if it keeps coming back.",
        },
        family={
            "fr": "Une carte qui n’allait pas. Ça arrive à tout le monde : regarde bien les "
            "deux fractions.",
            "en": "A card that did not fit. It happens to everyone: look closely at both "
            "fractions.",
        },
        try_this={
            "fr": "Demander à l’élève d’expliquer son choix.",
            "en": "Ask the student to explain the choice.",
        },
        detection='a wrong "equal" claim that no rule above fits',
        claim="equal",
        examples=(((6, 12), (3, 24)),),
        basis=("inference",),
        confidence="low",
    ),
)

RULES_BY_ID: Final[dict[str, Rule]] = {rule.id: rule for rule in RULES}
