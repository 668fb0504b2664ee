"""Sphinx extension: emit each inline script once per page.

With Jupyter Book 1.0.4 (Sphinx 7.4), the inline configuration scripts of sphinx-thebe and
sphinx-togglebutton are written twice into every page; the second ``const THEBE_JS_URL`` is a
JavaScript SyntaxError in the browser console. This drops repeated scripts before rendering.
The copies differ only in their filename (``None`` from the builder, ``""`` from the registry).
"""


def _dedupe(app, pagename, templatename, context, doctree):
    seen = set()
    unique = []
    for script in context.get("script_files", []):
        # the same inline script arrives once with filename None and once with filename ""
        key = (getattr(script, "filename", None) or "",
               tuple(sorted(getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.connect("html-page-context", _dedupe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
