import sys

from labelrender.cli import main

sys.exit(main())
