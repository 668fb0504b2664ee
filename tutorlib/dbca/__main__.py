"""``python -m tutorlib.dbca export DIR``: our MCD splits of SCAN in the released format."""

import sys

from tutorlib.dbca.files import main

sys.exit(main())
