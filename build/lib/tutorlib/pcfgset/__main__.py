"""``python -m tutorlib.pcfgset export DIR``: write every split in the published layout."""

import sys

from tutorlib.pcfgset.files import main

sys.exit(main())
