"""The jitted rules kernel: the reference engine's rules over flat arrays, many games per call."""

import warnings

from numba.core.errors import NumbaExperimentalFeatureWarning

# Strategies are first-class functions, a feature numba still calls experimental.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
