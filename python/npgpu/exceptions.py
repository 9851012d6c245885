"""npgpu.exceptions: the exception and warning classes npgpu raises, under npgpu's name, for code written
against ``numpy.exceptions`` (``except np.exceptions.AxisError`` under ``import npgpu as np``).

NumPy's classes are the same objects as in numpy.exceptions (npgpu raises NumPy's AxisError, ComplexWarning
..., so existing ``except`` clauses catch npgpu's errors); npgpu's own are CUDAError, GPUUnavailableError and
OutOfMemoryError, also at the top of the npgpu namespace.
"""
import numpy as np
from numpy.exceptions import (
    AxisError,
    ComplexWarning,
    DTypePromotionError,
    ModuleDeprecationWarning,
    TooHardError,
    VisibleDeprecationWarning,
)

from npgpu._errors import CUDAError, GPUUnavailableError, OutOfMemoryError

# numpy.exceptions has it from NumPy 2; NumPy 1.26 keeps it at the top level
RankWarning = getattr(np.exceptions, "RankWarning", None) or np.RankWarning

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
           "TooHardError", "VisibleDeprecationWarning", "CUDAError", "GPUUnavailableError", "OutOfMemoryError"]
