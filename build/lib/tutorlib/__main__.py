import sys

from tutorlib.cli import main

sys.exit(main())
