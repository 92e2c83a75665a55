"""What a mechanism is: exact laws and privacy profiles (no accountants, no RNG state)."""

from dpverify.mechanisms.continuous import (
    gaussian_delta,
    gaussian_privacy_profile,
    laplace_delta,
    laplace_privacy_profile,
)

__all__ = [
    "gaussian_delta",
    "gaussian_privacy_profile",
    "laplace_delta",
    "laplace_privacy_profile",
]
