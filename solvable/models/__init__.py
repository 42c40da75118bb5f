"""The models layer: one module (or subpackage) per paper or model, each holding its sympy
source (the single source of every formula), the evaluators generated from it, its loss and
gradient flow, conservation laws, claims and errata, and its ``MODEL`` record.

It imports only :mod:`solvable._core` (and other models).  :data:`solvable.MODELS` lists
the models in the registry's order; ``solvable.<name>`` is an alias of
``solvable.models.<name>``.
"""
