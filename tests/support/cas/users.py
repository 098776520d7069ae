"""The CAS server's test users: an Édifice/ONE-shaped and a GAR-shaped teacher and pupil, and the
users the security tests need (a homonym, a parent, a teacher of another school).

Every password is PASSWORD. The attributes are what each ENT releases (lessons/ent/presets.py).
"""

from __future__ import annotations

PASSWORD = "motdepasse-ent"
SCHOOL_UAI = "0751234A"
OTHER_UAI = "0699999Z"

USERS: dict[str, dict[str, object]] = {
    "prof.edifice": {
        "externalId": "EDI-T-0001",
        "displayName": "Marie Curie",
        "profile": "Teacher",
        "classes": ["CM2 A", "CM1 B"],
        "uai": SCHOOL_UAI,
    },
    # Same display name as prof.edifice, another ENT account: must never reach her account.
    "homonyme.edifice": {
        "externalId": "EDI-T-0009",
        "displayName": "Marie Curie",
        "profile": "Teacher",
        "classes": ["6e 2"],
        "uai": SCHOOL_UAI,
    },
    "eleve.edifice": {
        "externalId": "EDI-P-0002",
        "displayName": "Léa Martin",
        "profile": "Student",
        "classes": "CM2 A",
        "uai": SCHOOL_UAI,
    },
    "parent.edifice": {
        "externalId": "EDI-R-0005",
        "displayName": "Jean Martin",
        "profile": "Relative",
        "uai": SCHOOL_UAI,
    },
    "prof.autre": {
        "externalId": "EDI-T-0007",
        "displayName": "Paul Autre",
        "profile": "Teacher",
        "uai": OTHER_UAI,
    },
    # Hostile attributes (issue 32 §9): a role with both values, a name with bidi controls.
    "double.edifice": {
        "externalId": "EDI-X-0010",
        "displayName": "Double Rôle",
        "profile": ["Student", "Teacher"],
        "classes": "CM2 A",
        "uai": SCHOOL_UAI,
    },
    "double.gar": {
        "IDO": "GAR-x-0011",
        "PRE": "Double",
        "NOM": "Rôle",
        "PRO": ["National_elv", "National_ens"],
        "DIV": "3A",
        "UAI": SCHOOL_UAI,
    },
    "bidi.edifice": {
        "externalId": "EDI-P-0012",
        # Shows as "Léa MARTIN" in a right-to-left run: "\u202eNITRAM" reads "MARTIN".
        "displayName": "L\u00e9a \u202eNITRAM\u202c\u200b",
        "profile": "Student",
        "classes": ["CM2\u00a0A\u200f"],
        "uai": SCHOOL_UAI,
    },
    "bidi.prof": {
        "externalId": "EDI-T-0013",
        "displayName": "\u202eeiruC eiraM",
        "profile": "Teacher",
        "uai": SCHOOL_UAI,
    },
    "prof.gar": {
        "IDO": "GAR-ens-0003",
        "PRE": "Hélène",
        "NOM": "Lamy",
        "PRO": "National_ens",
        "DIV": ["3A", "4B"],
        "UAI": SCHOOL_UAI,
    },
    "eleve.gar": {
        "IDO": "GAR-elv-0004",
        "PRE": "Hugo",
        "NOM": "Bernard",
        "PRO": "National_elv",
        "DIV": "3A",
        "UAI": SCHOOL_UAI,
    },
}
