"""The readers of the school's own exports (ONDE, SIECLE): shapes, encodings, bad files.

Pure reading: no database. Each refusal is a ValidationError whose message is checked in
French (the teacher's language) and whose code says which refusal it is.
"""

from __future__ import annotations

import io
import struct
import zipfile

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from lessons.classrooms.roster_files import (
    KIND_AUTO,
    KIND_CSV,
    KIND_ONDE,
    KIND_SIECLE,
    SchoolFile,
    school_file_read,
)
from lessons.classrooms.roster_files.naming import class_names, names_maybe_same
from lessons.classrooms.roster_files.pupils import SchoolPupil
from lessons.classrooms.roster_files.siecle import SIECLE_XML_MAX_BYTES
from tests.support.school_exports import (
    CLASS_COUNTS,
    CLASS_ORDER,
    CM1_A_NAMES,
    COLLEGE,
    ONDE_HEADINGS,
    SCHOOL,
    Pupil,
    onde_csv,
    siecle_xml,
    siecle_zip,
    zipped,
)

NNBSP = "\u202f"
ACCENTED = [
    Pupil("FRANÇOIS", "Anaïs", "CE1 Mme Hélène", "012345678AB", "03/02/2016"),
    Pupil("LEFÈVRE", "Loïc", "CE1 Mme Hélène", "012345679AC", "04/02/2016"),
    Pupil("ŒUVRARD", "Maëlys", "CE1 Mme Hélène", "012345680AD", "05/02/2016"),
]


def _read(data: bytes, kind: str = KIND_AUTO, *, whole: bool = False) -> SchoolFile:
    read = school_file_read(data=data, kind=kind, whole_last_name=whole)
    assert read is not None
    return read


def _classes(read: SchoolFile) -> dict[str, list[str]]:
    return {c.label: c.names for c in read.classes}


def _refusal(data: bytes, kind: str = KIND_AUTO) -> tuple[str, str]:
    """Return the code and the French message of the refusal of a file."""
    with pytest.raises(ValidationError) as caught:
        school_file_read(data=data, kind=kind, whole_last_name=False)
    error = caught.value.error_list[0]
    with translation.override("fr"):
        return str(error.code), error.messages[0]


# ONDE


def test_a_whole_school_gives_its_8_classes_with_their_pupils() -> None:
    read = _read(onde_csv())
    assert read.kind == "onde"
    assert {label: len(names) for label, names in _classes(read).items()} == CLASS_COUNTS
    assert _classes(read)["CM1 A"] == CM1_A_NAMES
    assert [c.label for c in read.classes] == CLASS_ORDER  # by level, CP first
    assert read.left == 1  # Noah GIRARD left the school


def test_windows_1252_accents_are_read() -> None:
    data = onde_csv(ACCENTED, encoding="cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # really Windows-1252
    assert _classes(_read(data)) == {"CE1 Mme Hélène": ["Anaïs F.", "Loïc L.", "Maëlys Œ."]}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"], ids=["utf8", "utf8-bom"])
def test_a_utf8_file_with_or_without_bom_reads_the_same(encoding: str) -> None:
    data = onde_csv(ACCENTED, encoding=encoding)
    assert data.startswith(b"\xef\xbb\xbf") == (encoding == "utf-8-sig")
    assert _classes(_read(data)) == {"CE1 Mme Hélène": ["Anaïs F.", "Loïc L.", "Maëlys Œ."]}


def test_headings_with_leading_spaces_and_other_separators_are_found() -> None:
    spaced = [f" {h}" if h in ("Libellé classe", "Prénom élève") else h for h in ONDE_HEADINGS]
    # Every cell quoted, as some spreadsheets and extractions write them.
    quoted = b"\r\n".join(
        b'"' + line.replace(b";", b'";"') + b'"' if line else line
        for line in onde_csv().split(b"\r\n")
    )
    for data in (
        onde_csv(SCHOOL, headings=spaced),
        quoted,
        onde_csv(SCHOOL, separator="\t"),
        onde_csv(SCHOOL, separator=","),
    ):
        assert _classes(_read(data))["CM1 A"] == CM1_A_NAMES


def test_footer_empty_and_preamble_lines_are_ignored() -> None:
    bare = _classes(_read(onde_csv(footer=False)))
    preamble = "Extraction ONDE\r\n\r\nÉcole élémentaire Jean Jaurès\r\n".encode("cp1252")
    padded = preamble + onde_csv() + b"\r\n;;;;;;;;;;\r\n\r\n"
    assert _classes(_read(padded)) == bare
    assert sum(len(names) for names in bare.values()) == len(SCHOOL) - 1


def test_homonyms_are_told_apart_within_a_class() -> None:
    classes = _classes(_read(onde_csv()))
    assert classes["CM1 A"][:2] == ["Lucas Ma.", "Lucas Mo."]
    assert classes["CE2"] == ["Emma L.", "Emma L. (2)", "Raphaël M.", "Zoé P."]
    assert classes["CE1 A"][-1] == "Zoé P."  # another class: the same short name is fine


def test_the_whole_last_name_only_when_asked() -> None:
    classes = _classes(_read(onde_csv(), whole=True))
    assert classes["CM1 A"] == ["Lucas MARTIN", "Lucas MOREAU", "Élodie DUPONT", "Océane PETIT"]
    assert classes["CE2"][:2] == ["Emma LEROY", "Emma LEROY (2)"]


def test_nothing_but_names_and_classes_comes_out() -> None:
    read = _read(onde_csv())
    text = repr(read)
    for pupil in SCHOOL:
        assert pupil.ine not in text and pupil.born not in text
    assert "MARTIN" not in text and "Noah" not in text


def test_a_name_is_cleaned_and_short_last_names_lengthen_only_as_needed() -> None:
    pupils = [
        SchoolPupil("  Lou  Anne ", "MA", "C"),
        SchoolPupil("Lou Anne", "MARTIN", "C"),
        SchoolPupil("Mia", "", "C"),
        SchoolPupil("Lou", "de la Tour", "C"),
    ]
    assert class_names(pupils, whole_last_name=False) == [
        "Lou Anne MA",
        "Lou Anne Mar.",
        "Mia",
        "Lou D.",
    ]


def test_a_name_written_shorter_or_longer_may_be_the_same_pupil() -> None:
    missing = ["Lucas M.", "Lu", "Emma", "Zoé MARTIN", "Léa", "AnaïsA", "Jade B."]
    new = ["Lucas Ma.", "Lucas Mo.", "Emmanuel D.", "Zoé M.", "Léa B. (2)", "Jade D."]
    assert names_maybe_same(missing, new) == [
        ("Lucas M.", ["Lucas Ma.", "Lucas Mo."]),  # a second Lucas M. arrived
        ("Zoé MARTIN", ["Zoé M."]),  # whole last names then, initials now
        ("Léa", ["Léa B. (2)"]),  # typed by hand, then imported
    ]  # "Lu" is not "Lucas", "Emma" not "Emmanuel", "Jade B." not "Jade D."
    assert names_maybe_same(["lucas m."], ["Lucas M."]) == []  # the same name is unchanged


def test_a_plain_class_list_is_left_to_the_csv_import() -> None:
    plain = "Nom;Prénom;Date de naissance\nMARTIN;Zoé;01/02/2015\n".encode()
    assert school_file_read(data=plain, kind=KIND_AUTO, whole_last_name=False) is None
    assert school_file_read(data=onde_csv(), kind=KIND_CSV, whole_last_name=False) is None


WRONG_ENCODING = (
    f"Les accents du fichier sont illisibles{NNBSP}: il n’est ni dans l’encodage d’ONDE "
    "(Windows-1252) ni en UTF-8. Exportez de nouveau la liste depuis ONDE et choisissez le "
    "fichier tel quel, sans l’ouvrir dans un tableur."
)


@pytest.mark.parametrize(
    "data",
    [
        onde_csv(ACCENTED, encoding="utf-16"),
        onde_csv(ACCENTED).replace("Loïc".encode("cp1252"), b"Lo\x81c"),  # not in Windows-1252
        onde_csv(ACCENTED, encoding="utf-8").replace("Loïc".encode(), b"Lo\xc2\x85c"),  # C1
    ],
    ids=["utf16", "undefined-byte", "control-character"],
)
def test_a_wrong_encoding_is_said_in_french(data: bytes) -> None:
    assert _refusal(data, KIND_ONDE) == ("encoding", WRONG_ENCODING)


def test_garbled_accents_are_said_in_french() -> None:
    # UTF-8 opened as Windows-1252 in a spreadsheet and saved again: "Anaïs" became "AnaÃ¯s".
    data = onde_csv(ACCENTED, encoding="utf-8").decode("cp1252", errors="replace").encode()
    code, message = _refusal(data)
    assert code == "garbled"
    assert message.startswith(f"Les accents du fichier sont abîmés («{NNBSP}Ã")


def test_a_file_that_is_not_onde_is_refused_when_onde_is_chosen() -> None:
    for data in (b"Classe;Date\nCM1;2015\n", "Prénom;Nom\nZoé;MARTIN\n".encode()):
        code, message = _refusal(data, KIND_ONDE)
        assert code == "not_onde"
        assert message.startswith(f"Ce n’est pas un export ONDE{NNBSP}: ")
    assert _refusal(b"\x89PNG\r\n\x1a\n\x00\x00", KIND_ONDE)[0] == "binary"


def test_an_onde_file_without_pupils_or_empty_is_refused() -> None:
    assert _refusal(onde_csv([]), KIND_ONDE)[0] == "no_rows"
    assert _refusal(b"  \r\n", KIND_ONDE)[0] == "empty"


def test_a_huge_cell_is_refused() -> None:
    data = onde_csv(ACCENTED).replace(b"Lo", b'"' + b"a" * 140_000 + b'"', 1)
    assert _refusal(data)[0] == "cell_too_long"


# SIECLE


def test_a_siecle_zip_gives_its_divisions() -> None:
    read = _read(siecle_zip())
    assert read.kind == "siecle"
    assert _classes(read) == {
        "6A": ["Inès B.", "Noé T."],
        "6B": ["Lina R.", "Éloïse R.", "Ethan R."],
        "6C": ["Inès M."],
    }
    assert read.left == 1  # Kylian DUBOIS left
    text = repr(read)
    assert not any(p.ine in text or p.born in text for p in COLLEGE)


def test_a_siecle_xml_alone_and_in_utf8_is_read_too() -> None:
    read = _read(siecle_xml(COLLEGE, encoding="UTF-8"))
    assert _classes(read)["6B"] == ["Lina R.", "Éloïse R.", "Ethan R."]
    assert _read(siecle_zip(), KIND_SIECLE).kind == "siecle"


def test_a_malformed_zip_is_refused() -> None:
    good = siecle_zip()
    for data in (good[:200], b"PK\x03\x04" + b"\x00" * 50, good[:-30]):
        code, message = _refusal(data)
        assert code == "bad_zip", data[:20]
        assert message.startswith("Le fichier zip ne s’ouvre pas")


def test_malformed_xml_in_the_zip_is_refused_with_its_line() -> None:
    xml = siecle_xml(COLLEGE).replace(b"</PRENOM>", b"</PRENOMS>", 1)
    code, message = _refusal(zipped({"ElevesSansAdresses.xml": xml}))
    assert code == "bad_xml"
    assert message == (
        f"Le fichier XML est abîmé (ligne 2){NNBSP}: téléchargez de nouveau l’export depuis SIECLE."
    )


def test_another_xml_or_a_zip_without_xml_is_refused() -> None:
    other = b'<?xml version="1.0"?><BEE_NOMENCLATURES><X/></BEE_NOMENCLATURES>'
    assert _refusal(zipped({"Nomenclature.xml": other}))[0] == "not_siecle"
    assert _refusal(zipped({"lisez-moi.txt": b"rien"}))[0] == "no_xml"
    empty = siecle_xml([])
    assert _refusal(zipped({"ElevesSansAdresses.xml": empty}))[0] == "no_rows"


BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE BEE_ELEVES [<!ENTITY a "aaaaaaaaaa">'
    b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
    b"<BEE_ELEVES><DONNEES><ELEVES><ELEVE><PRENOM>&c;</PRENOM></ELEVE></ELEVES></DONNEES>"
    b"</BEE_ELEVES>"
)
EXTERNAL_ENTITY = (
    b'<?xml version="1.0"?><!DOCTYPE BEE_ELEVES [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    b"<BEE_ELEVES><DONNEES><ELEVES><ELEVE><PRENOM>&x;</PRENOM></ELEVE></ELEVES></DONNEES>"
    b"</BEE_ELEVES>"
)


@pytest.mark.parametrize("xml", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["entities", "external"])
def test_entities_and_dtds_are_refused(xml: bytes) -> None:
    code, message = _refusal(zipped({"ElevesSansAdresses.xml": xml}))
    assert code == "unsafe_xml"
    assert message == (
        "Le fichier XML déclare une DTD ou des entités, ce que ne fait jamais un export SIECLE"
        f"{NNBSP}: il est refusé."
    )


def test_a_zip_bomb_is_refused_before_it_is_unpacked() -> None:
    # 40 MB of one byte packs into a few tens of kB.
    bomb = zipped({"ElevesSansAdresses.xml": b"<" + b" " * (40 * 1024 * 1024)})
    assert len(bomb) < 100_000
    code, message = _refusal(bomb)
    assert code == "too_big"
    limit = SIECLE_XML_MAX_BYTES // (1024 * 1024)
    assert message == (
        f"Le fichier décompressé dépasse {limit} Mo{NNBSP}: ce n’est pas l’export des élèves "
        "d’un établissement, il est refusé."
    )


def test_a_highly_packed_zip_under_the_size_limit_is_refused_too() -> None:
    bomb = zipped({"ElevesSansAdresses.xml": b"<" + b"\x20" * (8 * 1024 * 1024)})
    assert _refusal(bomb)[0] == "too_big"


def _lie_about_size(data: bytes, size: int) -> bytes:
    """Return the zip with its one member's uncompressed size rewritten to `size`."""
    raw = bytearray(data)
    local = raw.find(b"PK\x03\x04")
    struct.pack_into("<I", raw, local + 22, size)
    central = raw.find(b"PK\x01\x02")
    struct.pack_into("<I", raw, central + 24, size)
    return bytes(raw)


def test_a_zip_that_lies_about_its_size_never_unpacks_past_it() -> None:
    packed = zipped({"ElevesSansAdresses.xml": b"<" + b"\x20" * (40 * 1024 * 1024)})
    liar = _lie_about_size(packed, 1000)
    info = zipfile.ZipFile(io.BytesIO(liar)).infolist()[0]
    assert info.file_size == 1000 and info.compress_size > 0
    assert _refusal(liar)[0] == "bad_zip"  # stops at the declared size: its checksum fails


def test_too_many_members_or_too_big_a_file_is_refused() -> None:
    many = zipped({f"f{i}.xml": b"<a/>" for i in range(11)})
    assert _refusal(many)[0] == "no_xml"
    assert _refusal(b"PK\x03\x04" + b"\x00" * (5 * 1024 * 1024))[0] == "too_big"


def test_the_picker_lists_classes_by_level_youngest_first() -> None:
    labels = ["ULIS", "CM2", "GS", "CP", "PS-MS", "TPS", "ce1 b", "CE1 A"]
    pupils = [Pupil("NOM", f"Élève{i}", label, "", "") for i, label in enumerate(labels)]
    order = [c.label for c in _read(onde_csv(pupils)).classes]
    assert order == ["TPS", "PS-MS", "GS", "CP", "CE1 A", "ce1 b", "CM2", "ULIS"]
