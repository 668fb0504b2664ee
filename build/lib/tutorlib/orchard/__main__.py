"""``python -m tutorlib.orchard export DIR --variant NAME``: ORCHARD in the release's layout."""

from __future__ import annotations

import argparse
import sys
import time

from tutorlib.orchard.files import RELEASE_SIZE, export, export_all, sizes
from tutorlib.orchard.generator import part_names, variant_names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutorlib.orchard",
                                     description="ORCHARD (Pung & Chan 2021) in the layout of "
                                                 "the release's generate_tree.py")
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser("export", help="write {train,valid,test,test3..test12}.{input,label} "
                                             "into DIR")
    out.add_argument("directory", metavar="DIR")
    out.add_argument("--variant", required=True, choices=[*variant_names(), "all"],
                     metavar="NAME", help="one of " + ", ".join(variant_names()) + ", or 'all' "
                     "(one subdirectory of DIR each)")
    out.add_argument("--size", type=int, default=RELEASE_SIZE,
                     help="thousands of training examples, as the release's --size: 1,000 x "
                          "size in train, 100 x size in every other part (default "
                          f"{RELEASE_SIZE}; the paper: 500)")
    out.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    out.add_argument("--parts", help="comma-separated parts to write (default: all of "
                                     + ",".join(part_names()) + ")")
    args = parser.parse_args(argv)
    try:
        sizes(args.size)
        start = time.perf_counter()
        if args.variant == "all":
            if args.parts:
                parser.error("--parts cannot be combined with --variant all")
            path = export_all(args.directory, size=args.size, seed=args.seed)
        else:
            parts = args.parts.split(",") if args.parts else None
            path = export(args.directory, args.variant, size=args.size, seed=args.seed,
                          parts=parts)
    except ValueError as error:
        parser.error(str(error))
    print(f"ORCHARD {args.variant} written to {path} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
