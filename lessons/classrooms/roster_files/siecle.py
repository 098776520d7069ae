"""Read SIECLE's ExportXML_ElevesSansAdresses.zip (collèges): an XML file inside a zip.

The XML (`BEE_ELEVES`) lists each pupil (`ELEVE`, with `NOM_DE_FAMILLE` or `NOM`,
`NOM_USAGE`, `PRENOM`, `DATE_SORTIE` for a pupil who left) and, apart, each pupil's
structures (`STRUCTURES_ELEVE`: the division, `TYPE_STRUCTURE` "D", is the class; a pupil who
left may sit in the division "Inactifs"). Only those are read: the national id, the date of
birth and the rest are passed over. The shape followed is the one public importers of this
export read (BEE_ELEVES/DONNEES/ELEVES/ELEVE and BEE_ELEVES/DONNEES/STRUCTURES/STRUCTURES_ELEVE
keyed by the ELEVE_ID attribute, as in Pix's and SACoche's SIECLE imports), since the ministry
publishes no schema.

The file comes from a teacher's upload, so it is read with care: the zip's size, its number of
members and each member's unpacked size and packing ratio are bounded before anything is
unpacked, and unpacking stops one byte past the limit whatever the zip declares (a zip bomb);
the XML is parsed by defusedxml, which refuses a DTD, entities and external references (a
billion-laughs file, an XML external entity).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeElementTree
from defusedxml import DefusedXmlException
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from lessons.classrooms.name_rule import name_clean
from lessons.classrooms.roster_csv import CSV_EMPTY, CSV_TOO_BIG
from lessons.classrooms.roster_files.pupils import (
    SCHOOL_MAX_PUPILS,
    SCHOOL_TOO_MANY,
    SchoolPupil,
    SchoolRead,
)

SIECLE_ZIP_MAX_BYTES = 4 * 1024 * 1024
SIECLE_XML_MAX_BYTES = 16 * 1024 * 1024
SIECLE_ZIP_MAX_MEMBERS = 10
# Real exports pack about 10 to 1; far beyond is a file built to fill the memory.
SIECLE_MAX_RATIO = 200

SIECLE_BAD_ZIP = _(
    "The zip file cannot be opened (damaged, or not a zip). Download "
    "ExportXML_ElevesSansAdresses.zip from SIECLE again."
)
SIECLE_NO_XML = _(
    "The zip file holds no pupils' XML file: is it SIECLE's ExportXML_ElevesSansAdresses.zip?"
)
SIECLE_TOO_BIG = _(
    "The file unpacks to more than %(limit)d MB: this is not a school's pupils' export, it was "
    "refused."
)
SIECLE_BAD_XML = _(
    "The XML file is damaged (line %(line)d): download the export from SIECLE again."
)
SIECLE_UNSAFE_XML = _(
    "The XML file declares a DTD or entities, which a SIECLE export never does: it was refused."
)
SIECLE_NOT_SIECLE = _(
    "This is not SIECLE's pupils' export (ElevesSansAdresses): its content is “%(root)s”."
)
SIECLE_NO_PUPILS = _("The SIECLE export lists no pupil.")

_ZIP_MAGIC = b"PK\x03\x04"


def looks_like_siecle(data: bytes) -> bool:
    """Tell whether a file is a zip, or an XML file of SIECLE's (the zip's content)."""
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((_ZIP_MAGIC, b"PK\x05\x06")) or (
        head.startswith(b"<") and b"BEE_ELEVES" in data[:4096]
    )


def _member(archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    """Return the zip's pupils' XML member, once its declared size and ratio look sane."""
    members = archive.infolist()
    if len(members) > SIECLE_ZIP_MAX_MEMBERS:
        raise ValidationError(SIECLE_NO_XML, code="no_xml")
    xml = [m for m in members if m.filename.lower().endswith(".xml") and not m.is_dir()]
    if not xml:
        raise ValidationError(SIECLE_NO_XML, code="no_xml")
    member = next((m for m in xml if "eleves" in m.filename.lower()), xml[0])
    too_big = ValidationError(
        SIECLE_TOO_BIG, code="too_big", params={"limit": SIECLE_XML_MAX_BYTES // (1024 * 1024)}
    )
    if member.file_size > SIECLE_XML_MAX_BYTES:
        raise too_big
    if member.file_size > SIECLE_MAX_RATIO * max(member.compress_size, 1):
        raise too_big
    return member


def _unzip(data: bytes) -> bytes:
    """Return the XML the zip holds, unpacked at most one byte past the limit."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            member = _member(archive)
            if member.flag_bits & 0x1:
                raise ValidationError(SIECLE_BAD_ZIP, code="bad_zip")  # a password
            with archive.open(member) as stream:
                # The declared size may lie: never unpack more than the limit.
                xml = stream.read(SIECLE_XML_MAX_BYTES + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as error:
        raise ValidationError(SIECLE_BAD_ZIP, code="bad_zip") from error
    if len(xml) > SIECLE_XML_MAX_BYTES:
        raise ValidationError(
            SIECLE_TOO_BIG, code="too_big", params={"limit": SIECLE_XML_MAX_BYTES // (1024 * 1024)}
        )
    return xml


def _parse(xml: bytes) -> Element:
    try:
        root = SafeElementTree.fromstring(xml, forbid_dtd=True)
    except DefusedXmlException as error:
        raise ValidationError(SIECLE_UNSAFE_XML, code="unsafe_xml") from error
    except ParseError as error:
        line = error.position[0] if getattr(error, "position", None) else 1
        raise ValidationError(SIECLE_BAD_XML, code="bad_xml", params={"line": line}) from error
    assert isinstance(root, Element)
    if root.tag != "BEE_ELEVES":
        raise ValidationError(
            SIECLE_NOT_SIECLE, code="not_siecle", params={"root": str(root.tag)[:40]}
        )
    return root


def _text(element: Element, *tags: str) -> str:
    """Return the first non-empty text among the element's children `tags`, cleaned."""
    for tag in tags:
        child = element.find(tag)
        if child is not None and child.text and child.text.strip():
            return name_clean(child.text)
    return ""


# SIECLE's division for pupils no longer at school, whatever their leaving date says.
INACTIVE_DIVISION = "inactifs"


def _divisions(root: Element) -> dict[str, str]:
    """Return each pupil's division (their class), by ELEVE_ID; "Inactifs" only if no other."""
    divisions: dict[str, str] = {}
    for pupil in root.iter("STRUCTURES_ELEVE"):
        key = pupil.get("ELEVE_ID", "")
        for structure in pupil.iter("STRUCTURE"):
            if _text(structure, "TYPE_STRUCTURE") != "D":
                continue
            code = _text(structure, "CODE_STRUCTURE")
            if key not in divisions or divisions[key].casefold() == INACTIVE_DIVISION:
                divisions[key] = code
    return divisions


def siecle_read(data: bytes) -> SchoolRead:
    """Return the pupils of a SIECLE export still at school, or refuse the file."""
    if not data.strip():
        raise ValidationError(CSV_EMPTY, code="empty")
    if len(data) > SIECLE_ZIP_MAX_BYTES:
        raise ValidationError(
            CSV_TOO_BIG, code="too_big", params={"limit": SIECLE_ZIP_MAX_BYTES // 1024}
        )
    root = _parse(_unzip(data) if data.startswith(_ZIP_MAGIC[:2]) else data)
    divisions = _divisions(root)
    pupils: list[SchoolPupil] = []
    left = 0
    for element in root.iter("ELEVE"):
        first = _text(element, "PRENOM")
        if not first:
            continue
        division = divisions.get(element.get("ELEVE_ID", ""), "")
        if _text(element, "DATE_SORTIE") or division.casefold() == INACTIVE_DIVISION:
            left += 1
            continue
        if len(pupils) >= SCHOOL_MAX_PUPILS:
            raise ValidationError(
                SCHOOL_TOO_MANY, code="too_many", params={"limit": SCHOOL_MAX_PUPILS}
            )
        pupils.append(
            SchoolPupil(
                first=first,
                last=_text(element, "NOM_USAGE", "NOM_DE_FAMILLE", "NOM"),
                classe=division,
            )
        )
    if not pupils:
        raise ValidationError(SIECLE_NO_PUPILS, code="no_rows")
    return SchoolRead(kind="siecle", pupils=pupils, left=left)
