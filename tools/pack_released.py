"""Pack the PCFG SET authors' release into the compact files ``tutorlib.pcfgset.released`` reads.

The release (Hupkes, Dankers, Mul & Bruni 2020; ``i-machine-think/am-i-compositional``, commit
4f75bdd, MIT licence) is 157 MB unpacked. The book needs its three architectures' predictions on
every test, the LSTMS2S localism blocks and the overgeneralisation logs; the sources and targets
are the same for every network, so they are stored once per test, and a prediction equal to its
target (most of them) is stored as ``=``. Everything is xz-compressed (Python's ``lzma``).

Written to ``tutorlib/pcfgset/released_data/``:

- ``LICENSE``: the release's MIT licence, copied verbatim (its copyright line included);
- ``<test>.tsv.xz`` for the base task, systematicity, productivity and both substitutivity
  conditions with their twins: a header ``source target lstms2s_1 ... transformer_3`` and one
  example a line, in the order of the release's ``data/pcfgset`` test files (ConvS2S's files are
  in fairseq's length order and are put back in that order, matched by source);
- ``localism.jsonl.xz``: one JSON line per (run, input) block of ``lstms2s/localism/run=N.txt``:
  its steps (input, prediction), the last being the whole input, and the release's own verdict;
- ``overgeneralisation.json``: per architecture, exception ratio and run, the logged
  memorisation (``Adapted``) and overgeneralisation (``Original``) accuracy of every epoch, and
  the released exception test sets.

Run: ``python tools/pack_released.py ../shared/published/am-i-compositional.tar.xz``.
"""

from __future__ import annotations

import argparse
import json
import lzma
import re
import tarfile
from pathlib import Path

ROOT = "am-i-compositional"
ARCHITECTURES = ("lstms2s", "convs2s", "transformer")
RUNS = (1, 2, 3)
RATIOS = ("0.0001", "0.0005", "0.001", "0.005")
HEADER = "source\ttarget\tprediction"
# test name -> (data folder, prediction folder, file suffix)
TESTS = {
    "pcfgset": ("pcfgset/test", "pcfgset", ""),
    "systematicity": ("systematicity/test", "systematicity", ""),
    "productivity": ("productivity/test", "productivity", ""),
    "substitutivity_equally_distributed": ("substitutivity/equally_distributed/test",
                                           "substitutivity/equally_distributed", ""),
    "substitutivity_equally_distributed_twin": ("substitutivity/equally_distributed/test_twin",
                                                "substitutivity/equally_distributed", "_synonym"),
    "substitutivity_primitive": ("substitutivity/primitive/test", "substitutivity/primitive", ""),
    "substitutivity_primitive_twin": ("substitutivity/primitive/test_twin",
                                      "substitutivity/primitive", "_synonym"),
}


def _lines(members: dict[str, bytes], name: str) -> list[str]:
    return members[f"{ROOT}/{name}"].decode("utf-8").rstrip("\n").split("\n")


def _rows(members: dict[str, bytes], name: str) -> list[list[str]]:
    lines = _lines(members, name)
    if lines[0] != HEADER:
        raise ValueError(f"{name}: expected the header {HEADER!r}, got {lines[0]!r}")
    return [line.split("\t") for line in lines[1:] if line.strip()]


def _order(rows: list[list[str]], key_rows: list[list[str]], sources: list[str]) -> list[int]:
    """The positions in ``rows`` of each source in data order (matched on ``key_rows``, whose
    sources are unique: the twins' for substitutivity)."""
    where = {row[0]: i for i, row in enumerate(key_rows)}
    if len(where) != len(key_rows) or set(where) != set(sources):
        raise ValueError("cannot match a prediction file's sources with the data's")
    return [where[source] for source in sources]


def pack_tests(members: dict[str, bytes], out: Path) -> None:
    for test, (data, folder, suffix) in TESTS.items():
        sources, targets = _lines(members, f"data/pcfgset/{data}.src"), _lines(
            members, f"data/pcfgset/{data}.tgt")
        twin = test.removesuffix("_twin") + "_twin"
        twin_data, _, twin_suffix = TESTS.get(twin, TESTS[test])
        key_sources = _lines(members, f"data/pcfgset/{twin_data}.src")
        columns = []
        for architecture in ARCHITECTURES:
            for run in RUNS:
                name = f"model_predictions/{architecture}/{folder}/run={run}{suffix}.txt"
                rows = _rows(members, name)
                key = _rows(members, name.replace(f"run={run}{suffix}", f"run={run}{twin_suffix}"))
                if [r[0] for r in rows] != sources:
                    rows = [rows[i] for i in _order(rows, key, key_sources)]
                if [r[0] for r in rows] != sources or [r[1] for r in rows] != targets:
                    raise ValueError(f"{name}: sources or targets differ from the data's")
                columns.append([r[2] if r[2] != r[1] else "=" for r in rows])
        header = ["source", "target"] + [f"{a}_{r}" for a in ARCHITECTURES for r in RUNS]
        lines = ["\t".join(header)] + ["\t".join([s, t, *(c[i] for c in columns)])
                                       for i, (s, t) in enumerate(zip(sources, targets))]
        (out / f"{test}.tsv.xz").write_bytes(lzma.compress(("\n".join(lines) + "\n").encode(),
                                                           preset=9 | lzma.PRESET_EXTREME))


def pack_localism(members: dict[str, bytes], out: Path) -> None:
    records = []
    for run in RUNS:
        text = members[f"{ROOT}/model_predictions/lstms2s/localism/run={run}.txt"].decode()
        for block in text.split("-----------------------------\n"):
            lines = [line for line in block.split("\n") if line.strip()]
            if not lines:
                continue
            if lines[-1] not in ("True", "False"):
                raise ValueError(f"localism run {run}: a block does not end in True or False")
            if not all(" ->" in line for line in lines[:-1]):
                raise ValueError(f"localism run {run}: a step without ' -> ': {lines[:-1]}")
            steps = [[part.strip() for part in line.partition(" ->")[::2]] for line in lines[:-1]]
            records.append({"run": run, "steps": steps, "same": lines[-1] == "True"})
    text = "\n".join(json.dumps(r, separators=(",", ":")) for r in records) + "\n"
    (out / "localism.jsonl.xz").write_bytes(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))


def _log(text: str) -> dict[str, list[float]]:
    curves: dict[str, list[float]] = {"memorisation": [], "overgeneralisation": []}
    epoch = 0
    for line in text.split("\n"):
        if (match := re.match(r"Epoch (\d+)", line)):
            epoch = int(match.group(1))
            if epoch != len(curves["memorisation"]) + 1:
                raise ValueError(f"epoch {epoch} out of order")
        elif (match := re.match(r"(Adapted|Original) - Sequence Accuracy:? (\S+)", line)):
            key = "memorisation" if match.group(1) == "Adapted" else "overgeneralisation"
            curves[key].append(float(match.group(2)))
    if len(curves["memorisation"]) != len(curves["overgeneralisation"]) or not curves["memorisation"]:
        raise ValueError("a log without one memorisation and one overgeneralisation score per epoch")
    return curves


def pack_overgeneralisation(members: dict[str, bytes], out: Path) -> None:
    logs = {}
    for architecture in ARCHITECTURES:
        prefix = "convs2s_evaluate_" if architecture == "convs2s" else ""
        logs[architecture] = {ratio: {str(run): _log(members[
            f"{ROOT}/model_predictions/{architecture}/overgeneralisation/{prefix}ratio={ratio}_run={run}.txt"
        ].decode()) for run in RUNS} for ratio in RATIOS}
    tests = {}
    for ratio in RATIOS:
        stem = f"data/pcfgset/overgeneralisation/test_pcfg_ratio={ratio}"
        sources = _lines(members, f"{stem}_exception.src")
        if sources != _lines(members, f"{stem}_original.src"):
            raise ValueError(f"ratio {ratio}: the exception and original inputs differ")
        tests[ratio] = {"sources": sources,
                        "exception_targets": _lines(members, f"{stem}_exception.tgt"),
                        "original_targets": _lines(members, f"{stem}_original.tgt")}
    (out / "overgeneralisation.json").write_text(
        json.dumps({"logs": logs, "tests": tests}, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", help="am-i-compositional.tar.xz")
    parser.add_argument("--out", default="tutorlib/pcfgset/released_data")
    args = parser.parse_args()
    with tarfile.open(args.archive) as archive:
        members = {m.name.removeprefix("./"): archive.extractfile(m).read()
                   for m in archive.getmembers() if m.isfile()}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "LICENSE").write_bytes(members[f"{ROOT}/LICENSE"])
    pack_tests(members, out)
    pack_localism(members, out)
    pack_overgeneralisation(members, out)
    total = sum(p.stat().st_size for p in out.iterdir())
    print(f"wrote {out} ({total / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
