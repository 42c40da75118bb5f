"""The core of solvable: knows no model.

* :mod:`~solvable._core.numbers`: validation and conversion of numbers, precision scopes;
* :mod:`~solvable._core.backends`: stable special functions, the one code generator
  (:func:`~solvable._core.backends.generate`) and array operations for numpy, mpmath, torch;
* :mod:`~solvable._core.activations`, :mod:`~solvable._core.geometry`: activation functions
  and the numerically careful angle, each defined once;
* :mod:`~solvable._core.claims`: the ``Theorem`` / ``Verdict`` / ``Erratum`` records and the
  proof helpers;
* :mod:`~solvable._core.tolerance`: the one tolerance policy;
* :mod:`~solvable._core.flows`, :mod:`~solvable._core.conservation`: gradient flows derived
  from a loss, conservation laws along them;
* :mod:`~solvable._core.model`: the model protocol (``Model``, ``System``).
"""
