"""Sphinx configuration for dpverify's documentation site.

The site: the user guide (``docs/guide/``, MyST Markdown; its examples are run by
``tests/test_readme.py``), the notebooks rendered with their stored outputs, the API
reference, the proof notes, the claims reports and the changelog.

Build locally (the ``docs`` extra installs Sphinx, numpydoc and myst-parser)::

    pip install ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html

CI runs the same command (``.ci/run``): every warning is an error, so a docstring
that does not render breaks the build.
"""

from __future__ import annotations

import shutil
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # document the checkout, not whatever is installed

# The notebooks live in notebooks/ (CI re-executes them there); the site renders copies of
# them with their stored outputs (docs/notebooks/ is rebuilt on every build, not committed).
NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
NOTEBOOKS.mkdir(exist_ok=True)
for _notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
    _copy = NOTEBOOKS / _notebook.name
    if not _copy.exists() or _copy.read_bytes() != _notebook.read_bytes():
        shutil.copyfile(_notebook, _copy)

import dpverify  # noqa: E402  (after the path is set)

project = "dpverify"
author = "the dpverify authors"
copyright = "the dpverify authors, Apache-2.0"
release = dpverify.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",  # renders the docstrings' ``.. math::`` and :math: roles
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",  # Markdown pages (the guide, proof notes, CHANGELOG) and the notebooks
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
templates_path = ["_templates"]

# -- API reference ------------------------------------------------------------
autosummary_generate = True  # api/generated/ is rebuilt on every build (not committed)
autosummary_imported_members = False
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
autodoc_member_order = "bysource"
numpydoc_show_class_members = False  # autosummary lists members; no duplicate stubs
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# numpydoc's own checks (GL08 = no docstring, …) are the linters' job; -W here means
# "everything that is written renders".
numpydoc_validation_checks: set[str] = set()
# A package's page documents what its __init__ defines and lists its submodules; each
# name re-exported in a package's ``__all__`` is documented once, in the public module
# that defines or exports it (docs/_templates/autosummary/module.rst).


def _skip_type_aliases(app, what, name, obj, skip, options):
    """Skip module-level aliases such as ``Target = tuple[str, float]``.

    ``isinstance(tuple[str, float], type)`` is true, so autodoc would try to document
    the alias as a class and fail; an alias is documented where it is used.
    """
    if isinstance(obj, types.GenericAlias):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_type_aliases)

# -- Notebooks: rendered with the outputs stored in them (CI executes them separately) ------
nb_execution_mode = "off"
nb_merge_streams = True

# -- Markdown (the guide, the proof notes) ----------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "deflist"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # proof notes start at ##-level sections in places

intersphinx_mapping: dict[str, tuple[str, None]] = {}  # offline builds: no inventories fetched

html_theme = "furo"  # a search box and a navigation sidebar on every page
html_title = f"dpverify {release}"
html_static_path: list[str] = []
