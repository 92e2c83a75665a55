"""``python -m dpverify.cli``: the ``dpverify`` command."""

import sys

from dpverify.cli import main

if __name__ == "__main__":  # importing it (Sphinx's autosummary does) must not run the CLI
    sys.exit(main())
