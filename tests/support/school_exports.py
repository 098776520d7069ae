"""The school's own class list exports, built by the tests in the shapes the tools give.

ONDE's CSVExtraction.csv (écoles): `;`-separated, Windows-1252, the headings ONDE writes
(" Cycle" with its leading space), a whole school in one file, a footer and empty lines.
SIECLE's ExportXML_ElevesSansAdresses.zip (collèges): a zip holding ElevesSansAdresses.xml
(`BEE_ELEVES`, ISO-8859-15), the pupils apart from their structures (division "D", groups "G").

SCHOOL is an école of 8 classes with homonyms (two Lucas M. in CM1 A, two Emma LEROY in CE2,
a Zoé P. in two classes) and a pupil who left (Noah GIRARD, CM1 A). Every pupil has an INE and
a date of birth that must never be stored.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from xml.sax.saxutils import escape


@dataclass(frozen=True)
class Pupil:
    """A pupil as the school's tools list them."""

    last: str
    first: str
    classe: str
    ine: str
    born: str
    level: str = "CM1"
    left: str = ""  # the date they left the school, if they did


def _school() -> list[Pupil]:
    rows = [
        ("CP A", "CP", ["DURAND Jade", "FAURE Hugo", "BLANC Inès"]),
        ("CP B", "CP", ["ROUSSEAU Léo", "MERCIER Chloé", "BONNET Nathan"]),
        ("CE1 A", "CE1", ["FRANÇOIS Anaïs", "LAMBERT Gabriel", "PETIT Zoé"]),
        ("CE1 B", "CE1", ["GARNIER Loïc", "CHEVALIER Maëlys", "ROBIN Timéo"]),
        ("CE2", "CE2", ["LEROY Emma", "LEROY Emma", "MOREL Raphaël", "PETITJEAN Zoé"]),
        ("CM1 A", "CM1", ["MARTIN Lucas", "MOREAU Lucas", "DUPONT Élodie", "PETIT Océane"]),
        ("CM1-CM2", "CM1", ["LEFÈVRE Sacha", "GAUTHIER Noémie", "ANDRÉ Jules"]),
        ("CM2", "CM2", ["ROUX Manon", "VINCENT Théo", "DAVID Léna"]),
    ]
    pupils = []
    number = 0
    for classe, level, names in rows:
        for name in names:
            last, first = name.split(" ", 1)
            number += 1
            pupils.append(
                Pupil(
                    last=last,
                    first=first,
                    classe=classe,
                    ine=f"0{number:08d}K{chr(65 + number % 26)}",
                    born=f"{number % 28 + 1:02d}/0{number % 9 + 1}/2016",
                    level=level,
                )
            )
    pupils.append(
        Pupil(
            last="GIRARD",
            first="Noah",
            classe="CM1 A",
            ine="099999999ZZ",
            born="29/02/2016",
            left="05/01/2027",
        )
    )
    return pupils


SCHOOL = _school()
CLASS_COUNTS = {
    "CE1 A": 3,
    "CE1 B": 3,
    "CE2": 4,
    "CM1 A": 4,
    "CM1-CM2": 3,
    "CM2": 3,
    "CP A": 3,
    "CP B": 3,
}
# The picker's order: by level (CP first), then by name.
CLASS_ORDER = ["CP A", "CP B", "CE1 A", "CE1 B", "CE2", "CM1 A", "CM1-CM2", "CM2"]
# CM1 A as the class list shows it: the two Lucas M. told apart, Noah (who left) not there.
CM1_A_NAMES = ["Lucas Ma.", "Lucas Mo.", "Élodie D.", "Océane P."]
ONDE_HEADINGS = [
    "Nom élève",
    "Nom d'usage élève",
    "Prénom élève",
    "Prénom 2",
    "Date naissance",
    "Sexe",
    "INE",
    " Cycle",
    "Niveau",
    "Libellé classe",
    "Date radiation",
]


def onde_csv(
    pupils: list[Pupil] = SCHOOL,
    *,
    encoding: str = "cp1252",
    separator: str = ";",
    headings: list[str] = ONDE_HEADINGS,
    footer: bool = True,
) -> bytes:
    """Return an ONDE CSVExtraction.csv of these pupils (CRLF lines, a footer, empty lines)."""
    lines = [separator.join(headings)]
    for index, p in enumerate(pupils):
        cells = [p.last, "", p.first, "", p.born, "F" if index % 2 else "M", p.ine]
        cells += ["2" if p.level in ("CP", "CE1", "CE2") else "3", p.level, p.classe, p.left]
        lines.append(separator.join(cells))
        if index == 4:
            lines.append("")  # an empty line in the middle
    if footer:
        lines += ["", f"Nombre d'élèves{separator}{len(pupils)}", "Extraction du 02/12/2026", ""]
    return "\r\n".join(lines).encode(encoding)


def _eleve(number: int, p: Pupil) -> str:
    left = f"<DATE_SORTIE>{p.left}</DATE_SORTIE>" if p.left else ""
    return (
        f'<ELEVE ELEVE_ID="{number}" ELENOET="{1000 + number}">'
        f"<ID_NATIONAL>{p.ine}</ID_NATIONAL><ELENOET>{1000 + number}</ELENOET>"
        f"<NOM_DE_FAMILLE>{escape(p.last)}</NOM_DE_FAMILLE><NOM_USAGE></NOM_USAGE>"
        f"<PRENOM>{escape(p.first)}</PRENOM><PRENOM2>Marie</PRENOM2>"
        f"<DATE_NAISS>{p.born}</DATE_NAISS><CODE_SEXE>1</CODE_SEXE>"
        f"<CODE_MEF>10010012110</CODE_MEF>{left}</ELEVE>"
    )


def _structures(number: int, p: Pupil) -> str:
    return (
        f'<STRUCTURES_ELEVE ELEVE_ID="{number}">'
        "<STRUCTURE><CODE_STRUCTURE>LATIN</CODE_STRUCTURE><TYPE_STRUCTURE>G</TYPE_STRUCTURE>"
        "</STRUCTURE>"
        f"<STRUCTURE><CODE_STRUCTURE>{escape(p.classe)}</CODE_STRUCTURE>"
        "<TYPE_STRUCTURE>D</TYPE_STRUCTURE></STRUCTURE></STRUCTURES_ELEVE>"
    )


def siecle_xml(pupils: list[Pupil], *, encoding: str = "ISO-8859-15") -> bytes:
    """Return ElevesSansAdresses.xml for these pupils (their classe is their division)."""
    eleves = "".join(_eleve(n, p) for n, p in enumerate(pupils, start=1))
    structures = "".join(_structures(n, p) for n, p in enumerate(pupils, start=1))
    text = (
        f'<?xml version="1.0" encoding="{encoding}"?>\n'
        '<BEE_ELEVES VERSION="3.1"><PARAMETRES><UAJ>0123456X</UAJ>'
        "<ANNEE_SCOLAIRE>2026</ANNEE_SCOLAIRE><DATE_EXPORT>02/12/2026</DATE_EXPORT>"
        f"</PARAMETRES><DONNEES><ELEVES>{eleves}</ELEVES>"
        f"<STRUCTURES>{structures}</STRUCTURES></DONNEES></BEE_ELEVES>\n"
    )
    return text.encode(encoding)


def zipped(members: dict[str, bytes]) -> bytes:
    """Return a zip (deflated) of these members."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# A collège's 6e: three divisions, a pupil who left, homonyms across divisions.
COLLEGE = [
    Pupil("BERNARD", "Inès", "6A", "111111111AA", "01/03/2014", "6E"),
    Pupil("THOMAS", "Noé", "6A", "111111112AB", "02/03/2014", "6E"),
    Pupil("ROBERT", "Lina", "6B", "111111113AC", "03/03/2014", "6E"),
    Pupil("RICHARD", "Éloïse", "6B", "111111114AD", "04/03/2014", "6E"),
    Pupil("RICHARD", "Ethan", "6B", "111111115AE", "05/03/2014", "6E"),
    Pupil("DUBOIS", "Kylian", "6B", "111111116AF", "06/03/2014", "6E", left="20/11/2026"),
    Pupil("MOREL", "Inès", "6C", "111111117AG", "07/03/2014", "6E"),
]


def siecle_zip(pupils: list[Pupil] = COLLEGE) -> bytes:
    """Return ExportXML_ElevesSansAdresses.zip for these pupils."""
    return zipped({"ElevesSansAdresses.xml": siecle_xml(pupils)})
