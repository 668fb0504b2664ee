"""Open the built book in headless Chromium: pages render, figures load, no console errors.

Needs Debian's `chromium` and `chromium-driver` (installed by .ci/run). Where they are absent the
test skips with a message, unless REQUIRE_BROWSER=1 (set in CI), where their absence fails.
"""

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

MISSING = ("headless Chromium is not installed: `apt-get install chromium chromium-driver` "
           "to run the browser check")
if not (CHROMIUM and CHROMEDRIVER) and os.environ.get("REQUIRE_BROWSER") == "1":
    raise RuntimeError(MISSING + " (REQUIRE_BROWSER=1)")
# Each test is skipped (not the module), so that pytest reports skipped tests and exits 0 rather
# than 5 ("no tests collected") on a machine without Chromium.
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

if CHROMIUM and CHROMEDRIVER:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait


def serve(directory: Path):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@pytest.fixture(scope="module")
def server():
    assert (HTML / "index.html").exists(), "build the book first (make html)"
    httpd, url = serve(HTML)
    yield url
    httpd.shutdown()


TEST_REPOSITORY = "https://github.com/example/measuring-compositionality"


@pytest.fixture(scope="module")
def linked_server(tmp_path_factory):
    """The book built as the publishing workflow builds it, for a test repository: a copy of the
    project with the repository written into _config.yml, built from the same executed chapters,
    then retargeted (tools/book_links.py)."""
    assert (HTML / "index.html").exists(), "build the book first (make html)"
    copy = tmp_path_factory.mktemp("published") / "book"
    copy.mkdir()
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy(ROOT / name, copy / name)
    for name in ("book", "tools"):
        shutil.copytree(ROOT / name, copy / name)
    (copy / "notebooks").mkdir()
    for source in (ROOT / "notebooks").glob("*.py"):
        shutil.copy(source, copy / "notebooks" / source.name)
    links = [sys.executable, str(ROOT / "tools" / "book_links.py")]
    subprocess.run([*links, "configure", "--repository", TEST_REPOSITORY,
                    "--config", str(copy / "_config.yml")], check=True, capture_output=True)
    build = subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build", str(copy),
                            "--warningiserror", "--nitpick"], capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    subprocess.run([*links, "retarget", str(copy / "_build" / "html"), "--repository",
                    TEST_REPOSITORY], check=True, capture_output=True)
    httpd, url = serve(copy / "_build" / "html")
    yield url
    httpd.shutdown()


def page_links(browser) -> list[str]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href);")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def open_page(browser, url, lands_on=None):
    """Load ``url`` (waiting for any redirect to ``lands_on``); return its images and errors."""
    browser.get(url)
    WebDriverWait(browser, 30).until(
        lambda b: (lands_on is None or b.current_url.endswith(lands_on))
        and b.execute_script("return document.readyState") == "complete")
    images = browser.execute_script(
        "return Array.from(document.images).map(i => [i.src, i.complete, i.naturalWidth]);")
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    return images, errors


def wait_for_mathjax(browser):
    """Wait until MathJax has typeset the page (no-op on a page without it)."""
    browser.set_script_timeout(60)
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "if (window.MathJax && MathJax.startup) { MathJax.startup.promise.then(done); }"
        "else { done(); }")


def test_index_renders_the_introduction(server, browser):
    # index.html redirects to the introduction page
    images, errors = open_page(browser, server + "/index.html", lands_on="/book/intro.html")
    assert "Measuring Compositionality" in browser.title
    body = browser.find_element("tag name", "body").text
    assert "The five methods" in body and "Tree Reconstruction Error" in body
    assert all(complete and width > 0 for _, complete, width in images), images
    assert errors == []


def test_first_chapter_shows_its_figures(server, browser):
    images, errors = open_page(browser, server + "/book/foundations/01_compositionality.html")
    body = browser.find_element("tag name", "body").text
    assert "Compositionality in one notebook" in body
    assert "executed at the" in body  # the profile line under the title
    code = browser.execute_script(
        "return Array.from(document.querySelectorAll('div.cell pre')).map(p => p.textContent);")
    assert code and not any("PROFILE = " in block for block in code)  # parameter cells hidden
    figures = [src for src, _, _ in images if "/_images/" in src]
    assert len(figures) >= 2, images
    broken = [src for src, complete, width in images if not (complete and width > 0)]
    assert broken == []
    assert errors == []


def test_figures_are_numbered_by_the_book_and_the_text_links_to_them(server, browser):
    _, errors = open_page(browser, server + "/book/scan/04_scan_exp2.html")
    numbers = browser.execute_script(
        "return Array.from(document.querySelectorAll('figure figcaption .caption-number'))"
        ".map(s => s.textContent.trim());")
    assert len(numbers) >= 2 and all(n.startswith("Figure ") for n in numbers), numbers
    # each figure appears once: the code cell's own copy of it is hidden (remove-output)
    images = browser.execute_script(
        "return Array.from(document.querySelectorAll('img')).map(i => i.getAttribute('src'));")
    figure_images = browser.execute_script(
        "return Array.from(document.querySelectorAll('figure img')).map(i => i.getAttribute('src'));")
    assert len(figure_images) == len(numbers) and len(set(images)) == len(images), images
    # a {numref} in the text is a link to the figure on the page, with its number
    refs = browser.execute_script(
        "return Array.from(document.querySelectorAll('a.reference span.std-numref'))"
        ".map(s => [s.textContent, s.closest('a').getAttribute('href')]);")
    targets = {f"#{anchor}" for anchor in browser.execute_script(
        "return Array.from(document.querySelectorAll('figure[id]')).map(f => f.id);")}
    assert refs and all(text.startswith("Figure ") and href in targets for text, href in refs), refs
    assert errors == []


def test_a_published_build_links_the_repository_and_opens_the_chapters_notebook(linked_server,
                                                                               browser):
    _, errors = open_page(browser, linked_server + "/book/scan/03_scan_exp1.html")
    links = set(page_links(browser))
    slug = TEST_REPOSITORY.split("github.com/")[1]
    assert TEST_REPOSITORY in links  # the repository button
    assert any(link.startswith(TEST_REPOSITORY + "/issues/new") for link in links)
    assert f"{TEST_REPOSITORY}/edit/main/notebooks/03_scan_exp1.py" in links
    assert (f"https://colab.research.google.com/github/{slug}/blob/main/notebooks/"
            f"03_scan_exp1.ipynb") in links
    assert (f"https://mybinder.org/v2/gh/{slug}/main?urlpath=lab/tree/notebooks/"
            f"03_scan_exp1.ipynb") in links
    # no link to the repository points at the executed copy under book/, which is not committed
    # (the site's own download of it, under _sources/, is fine)
    assert not [link for link in links if "book/scan/03_scan_exp1.ipynb" in link
                and not link.startswith(linked_server)]
    assert errors == []


def test_a_local_build_has_no_repository_or_launch_links_but_links_the_source(server, browser):
    _, errors = open_page(browser, server + "/book/scan/03_scan_exp1.html")
    links = page_links(browser)
    assert not [link for link in links
                if any(host in link for host in ("github.com", "colab.research", "mybinder"))]
    # the chapter's .py, for download
    assert any(link.endswith("/03_scan_exp1.py") and "_downloads" in link for link in links), links
    assert errors == []


def test_usage_page_renders(server, browser):
    _, errors = open_page(browser, server + "/book/usage.html")
    assert "How to use this book" in browser.find_element("tag name", "body").text
    assert errors == []


# Every page with display equations, at a desktop and a phone width: no equation may be wider
# than the column it sits in (its left part was hidden before, at every width).
MATH_PAGES = ["/book/tre/06_tre_intro.html", "/book/tre/09_tre_similarity.html"]


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_no_display_equation_overflows_its_column(server, browser, width, height):
    browser.set_window_size(width, height)
    try:
        for page in MATH_PAGES:
            open_page(browser, server + page)
            wait_for_mathjax(browser)
            overflowing = browser.execute_script("""
                const out = [];
                for (const el of document.querySelectorAll('mjx-container[display="true"]')) {
                  const column = el.closest('article') || el.parentElement;
                  const box = column.getBoundingClientRect();
                  const maths = el.querySelector('mjx-math') || el;
                  const r = maths.getBoundingClientRect();
                  if (r.width > box.width + 1 || el.scrollWidth > el.clientWidth + 1) {
                    out.push(el.textContent.slice(0, 40) + ' (' + Math.round(r.width) + ' > '
                             + Math.round(Math.min(box.width, el.clientWidth)) + ' px)');
                  }
                }
                return [document.querySelectorAll('mjx-container[display="true"]').length, out];
            """)
            count, wide = overflowing
            assert count > 0, f"{page}: no rendered display equations found"
            assert wide == [], f"{page} at {width} px: equations wider than the column: {wide}"
    finally:
        browser.set_window_size(1280, 900)


def _pages_with_maths() -> list[str]:
    """Every built page whose HTML holds TeX for MathJax (display or inline)."""
    pages = []
    for path in sorted((HTML / "book").rglob("*.html")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if 'class="math' in text or "\\(" in text:
            pages.append("/" + path.relative_to(HTML).as_posix())
    return pages


def test_no_page_shows_a_mathjax_error(server, browser):
    """MathJax draws a TeX error as an error box (``mjx-merror``) instead of failing: look for
    one on every page that has maths."""
    pages = _pages_with_maths()
    assert "/book/tre/06_tre_intro.html" in pages
    failed = {}
    for page in pages:
        open_page(browser, server + page)
        wait_for_mathjax(browser)
        errors = browser.execute_script(
            "return Array.from(document.querySelectorAll('mjx-merror'))"
            ".map(e => e.getAttribute('data-mjx-error') || e.textContent);")
        if errors:
            failed[page] = errors
    assert failed == {}, failed


def test_the_closing_chapter_glues_no_text(server, browser):
    """Every chapter is at the chapter standard (CONTRIBUTING.md), the closing chapter, the last
    to glue numbers into its prose, included: its sentences are cell outputs, so no glued text
    (``span.pasted-text``) is left in its paragraphs, while its figures are still glued."""
    open_page(browser, server + "/book/card/17_card.html")
    pasted = browser.execute_script(
        "return Array.from(document.querySelectorAll('p span.pasted-text')).map(s => s.textContent);")
    assert pasted == [], pasted
    figures = browser.execute_script("return document.querySelectorAll('figure img').length;")
    assert figures >= 4, f"the chapter's four glued figures: {figures} found"
