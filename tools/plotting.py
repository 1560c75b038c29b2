"""Loads matplotlib the one way every plotting tool here needs it: drawing to files (the Agg
backend, no display), text from input files drawn as plain text (no math mode, so a '$' in a name
is a dollar sign), and, where matplotlib is missing for the Python that runs the tool, one line
naming that Python and what to install, exit status 2, instead of a traceback."""
import os
import sys

MISSING_MATPLOTLIB_STATUS = 2


def load_matplotlib(tool):
    """Returns the matplotlib module set up for drawing files; `tool` names the caller in the error line."""
    try:
        import matplotlib
    except ImportError:
        requirements = os.path.join(os.path.dirname(os.path.realpath(__file__)), "requirements.txt")
        print(f"{tool}: error: matplotlib is not installed for {sys.executable} (pip install --user -r "
              f"{requirements}, or Debian's python3-matplotlib)", file=sys.stderr)
        sys.exit(MISSING_MATPLOTLIB_STATUS)
    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False
    return matplotlib
