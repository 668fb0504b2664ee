"""``python -m tutorlib.scan export DIR``: SCAN in the official layout."""

import sys

from tutorlib.scan.files import main

sys.exit(main())
