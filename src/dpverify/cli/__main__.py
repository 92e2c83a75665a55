"""``python -m dpverify.cli``: the ``dpverify`` command."""

import sys

from dpverify.cli import main

sys.exit(main())
