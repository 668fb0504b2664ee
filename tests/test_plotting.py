import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from tutorlib import plotting  # noqa: E402


def test_glue_figure_shows_and_records_the_figure_once_and_closes_it(monkeypatch):
    import myst_nb

    glued = []
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.append(
        (name, value, display)))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    plotting.glue_figure("fig-test", fig)
    assert glued == [("fig-test", fig, True)]
    assert fig.number not in plt.get_fignums()  # the inline backend will not show it again


def test_glue_figure_refuses_a_missing_label_or_something_else_than_a_figure():
    fig, _ = plt.subplots()
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        plotting.glue_figure("  ", fig)
    with pytest.raises(TypeError, match="fig=.* violates type hint"):
        plotting.glue_figure("fig-x", fig.axes[0])
    plt.close(fig)


def test_save_png_writes_the_same_bytes_twice_and_refuses_other_formats(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    first = plotting.save_png(fig, tmp_path / "a.png").read_bytes()
    second = plotting.save_png(fig, tmp_path / "b.png").read_bytes()
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and first == second
    with pytest.raises(ValueError, match="saved as PNG"):
        plotting.save_png(fig, tmp_path / "a.pdf")
    plt.close(fig)


def test_one_palette_named_without_matplotlib():
    """The book's colours live in tutorlib.colours (plotting re-exports them), so the modules
    that draw name them and still import without matplotlib; a tint is its colour, paler."""
    import subprocess
    import sys

    from tutorlib import colours

    assert plotting.PALETTE is colours.PALETTE and plotting.TINTS is colours.TINTS
    assert len(set(colours.PALETTE)) == 8 and set(colours.TINTS) <= set(colours.PALETTE)
    for colour, tint in colours.TINTS.items():
        full, pale = matplotlib.colors.to_rgb(colour), matplotlib.colors.to_rgb(tint)
        assert all(p >= f for f, p in zip(full, pale)) and min(pale) >= 0.8, (colour, tint)
    code = ("import sys\n"
            "import tutorlib.colours, tutorlib.trees, tutorlib.scan.report, tutorlib.dbca.report\n"
            "import tutorlib.pcfgset.report, tutorlib.orchard.report\n"
            "assert 'matplotlib' not in sys.modules\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
