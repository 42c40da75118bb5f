"""Shared pytest configuration: hypothesis profiles.

``default``: 60 examples per property (the suite stays well under 10 minutes on
2 cores); ``thorough`` (``--hypothesis-profile=thorough``, used with ``-m slow``
runs): 1000 examples.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")
