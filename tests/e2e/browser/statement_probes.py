"""Page probes behind the accessibility statement's automated claims (lessons/notices/rgaa.toml).

Each probe is a JavaScript expression that returns a list of problems (empty: the claim holds on
this page). "lang-matches", "reflow-320" and "titles-distinct" need more than one expression and
are run by tests/e2e/browser/test_accessibility_statement.py itself.
"""

from __future__ import annotations

# Presentational attributes RGAA 10.1 forbids (width and height are allowed on img, object,
# embed, canvas and svg; SVG's own drawing attributes are not HTML presentation).
_PRESENTATION_ATTRIBUTES = (
    "align alink background bgcolor border cellpadding cellspacing char charoff clear color "
    "compact frameborder hspace link marginheight marginwidth text valign vlink vspace"
)

PROBES: dict[str, str] = {
    "decorative-images": """() => [...document.images]
        .filter((i) => i.getAttribute("alt") === ""
            && (i.title || i.getAttribute("aria-label") || i.getAttribute("aria-labelledby")))
        .map((i) => i.outerHTML.slice(0, 80))""",
    "no-frame": """() => [...document.querySelectorAll("iframe, frame, frameset")]
        .map((e) => e.outerHTML.slice(0, 80))""",
    "no-media": """() => [...document.querySelectorAll("video, audio, object, embed, applet")]
        .map((e) => e.outerHTML.slice(0, 80))""",
    "table-captions": """() => [...document.querySelectorAll("table")]
        .filter((t) => !t.caption || !t.caption.textContent.trim())
        .map((t) => t.outerHTML.slice(0, 80))""",
    "header-scopes": """() => [...document.querySelectorAll("th")]
        .filter((th) => !["col", "row", "colgroup", "rowgroup"].includes(th.getAttribute("scope")))
        .map((th) => th.outerHTML.slice(0, 80))""",
    "doctype": """() => (document.doctype && document.doctype.name === "html"
        && !document.doctype.publicId) ? [] : ["no HTML5 doctype"]""",
    "no-presentation-markup": f"""() => {{
        const attributes = "{_PRESENTATION_ATTRIBUTES}".split(" ");
        const sized = new Set(["IMG", "OBJECT", "EMBED", "CANVAS", "svg", "INPUT", "SELECT"]);
        const html = "http://www.w3.org/1999/xhtml";
        const found = [...document.querySelectorAll(
            "font, center, big, blink, marquee, basefont, strike, tt")]
            .map((e) => e.tagName);
        for (const e of document.querySelectorAll("*")) {{
            if (e.namespaceURI !== html) continue;
            const named = (name) => `${{e.tagName}}[${{name}}]`;
            for (const name of attributes) if (e.hasAttribute(name)) found.push(named(name));
            for (const name of ["width", "height", "size"]) {{
                if (e.hasAttribute(name) && !sized.has(e.tagName)) found.push(named(name));
            }}
        }}
        return found;
    }}""",
    "fieldset-legends": """() => {
        const named = (e) => (e.getAttribute("aria-label") || "").trim()
            || (e.getAttribute("aria-labelledby") || "").split(/\\s+/).some(
                (id) => id && document.getElementById(id)
                    && document.getElementById(id).textContent.trim());
        return [
            ...[...document.querySelectorAll("fieldset")]
                .filter((f) => !(f.querySelector("legend") || {}).textContent)
                .map((f) => f.outerHTML.slice(0, 80)),
            // A closed question (hidden) is named when it opens.
            ...[...document.querySelectorAll("[role=group], [role=radiogroup]")]
                .filter((g) => !g.closest("[hidden]") && !named(g))
                .map((g) => g.outerHTML.slice(0, 80)),
        ];
    }""",
    "autocomplete": """() => [...document.querySelectorAll(
            "input[name=username], input[name=password], input[name^=new_password]")]
        .filter((i) => !["username", "current-password", "new-password"]
            .includes(i.getAttribute("autocomplete")))
        .map((i) => i.outerHTML.slice(0, 80))""",
    "no-new-window": """() => [...document.querySelectorAll(
            "a[target]:not([target=_self]), form[target]:not([target=_self])")]
        .map((e) => e.outerHTML.slice(0, 80))""",
    "skip-link-first": """() => {
        const first = [...document.querySelectorAll(
            "a[href], button, input:not([type=hidden]), select, textarea, [tabindex]")]
            .find((e) => e.getAttribute("tabindex") !== "-1" && !e.disabled
                && !e.closest("[hidden]"));
        const target = first && first.getAttribute("href");
        if (!target || !target.startsWith("#") || !document.getElementById(target.slice(1))) {
            return [`first focusable: ${first ? first.outerHTML.slice(0, 80) : "none"}`];
        }
        return [];
    }""",
}

# Probes the test runs itself (see the module's docstring).
SPECIAL = {"lang-matches", "reflow-320", "titles-distinct"}
