import sys

from .capture import main

sys.exit(main())
