"""Line-aligned text files, read and written faithfully: UTF-8 only, no blank line inside a
file, no field that would break the alignment, no file name that leaves its directory.

The benchmarks' released layouts (PCFG SET's ``.src``/``.tgt``, ORCHARD's ``.input``/``.label``)
keep one example per line in two files; a stray blank line or a field with a newline shifts
every line after it, so the readers and writers of those layouts check through here.

Examples
--------
>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "part.src"
>>> _ = path.write_text("copy A1\\nreverse B2\\n\\n", encoding="utf-8")
>>> read_lines(path)
['copy A1', 'reverse B2']
>>> check_name("train"), check_field("copy A1", "input")
('train', 'copy A1')
"""

from __future__ import annotations

import os
from pathlib import Path


def read_text(path: str | os.PathLike) -> str:
    """The text of a UTF-8 file; a ``FileNotFoundError`` or ``ValueError`` naming the file when
    it is missing, a directory or not UTF-8."""
    if isinstance(path, str) and not path.strip():
        raise ValueError("the path is empty: name a file to read")
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"no file at {path}") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a directory, not a text file") from None
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file without their line ends. Blank lines at the end are
    dropped; a blank line before the last line is a ``ValueError`` naming the file and the line
    (from 1), as is text that is not UTF-8."""
    path = Path(path)
    lines = read_text(path).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise ValueError(f"{path}, line {number} is blank: every line of the file is one "
                             f"example, so a blank line would shift the lines after it")
    return lines


def check_field(text: str, what: str) -> str:
    """``text`` if it can be written on one line: a string with no line break."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a string, got {type(text).__name__} {text!r}")
    if any(mark in text for mark in ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
                                     "\u2028", "\u2029")):
        raise ValueError(f"{what} {text!r} holds a line break: written, it would shift every "
                         f"line after it")
    return text


def check_name(name: str, what: str = "name") -> str:
    """``name`` if it names a file inside its directory: a non-empty string without a path
    separator, not ``.`` or ``..``."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a string, got {type(name).__name__} {name!r}")
    if (not name.strip() or name in (".", "..") or "/" in name or "\\" in name
            or os.sep in name or "\x00" in name):
        raise ValueError(f"{what} {name!r} must name a file inside the directory (no path "
                         f"separators, not '.' or '..')")
    return name


def output_directory(path: str | os.PathLike) -> Path:
    """``path`` as a directory to write into, created if needed, checked before any work: a
    ``ValueError`` names the path when it is a file, or when no file can be written there."""
    if isinstance(path, str) and not path.strip():
        raise ValueError("the directory is empty: name a directory to write into ('.' for "
                         "this one)")
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path} is a file, not a directory to write into")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise ValueError(f"cannot write into {path}: {error.strerror or error}") from None
    return path


__all__ = ["check_field", "check_name", "output_directory", "read_lines", "read_text"]


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
