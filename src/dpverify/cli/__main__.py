"""``python -m dpverify.cli``: the ``dpverify`` command."""

import sys

from dpverify.cli import main

if __name__ == "__main__":  # importing the module (Sphinx autosummary, pydoc) runs nothing
    sys.exit(main())
