"""Mutants of the one result type (issue 30), ``kunin.regime(traj)`` and the kernel names
(``9df2abd``, ``2bea638``, ``6ed3f5c``, ``1468eaf``; the sources as at ``94a99cd``):

* ``solvable/_core/states.py``: ``check_index`` (``[-n, n)``, bools refused),
  ``SequenceOfStates`` (``at``, iteration, ``len``, the deprecated ``states[k]`` / slice
  with its ``DeprecationWarning``), ``StackedStates.stack`` (a dict-valued field stacked
  key by key) and ``_stack``;
* ``numerics.simulate`` returning ``system.stack(setup, states, weights, dps)``;
  ``TwoLayerLinearSystem.stack`` (xu_ziyin: ``alpha`` measured from the ``p``, ``q``
  coordinates of the initial weights: ``P > 0``, ``P = 0 < Q``, both zero -> nan);
  kunin's ``States.at`` (``delta`` a number or ``(T,)``); linear_node_scaling's
  ``States.at`` (``a`` fixed);
* xu_ziyin's loss: ``States.at``, the closed form's loss from the residual ``r`` (reference
  engine ``_evaluate`` and fast engine ``Float64Sample``), ``_to_float64`` (the loss may
  round to inf);
* ``FlowResult.states(setup, params0, element)`` (``numerics/torch_flow/results.py``);
* ``kunin.regime(traj)`` (``solvable/models/kunin/preconditioners.py``);
* the kernel names: ``symbols.check_kernel_name`` and ``RENAMED``, the closed form
  ``kernel`` (``'ntk' = 'rf' + 'ntk_first_layer'``), the oracle's hint
  (``solvable/verification/kernel_oracle.py``).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints (``tests``) were filled in from the test files' names only, as the maintainer
asked.  Each mutant is one replacement at one place, the kind of slip a developer makes
(an inclusive bound, a warning's stacklevel, a slice taken apart by hand, ``values[0]`` for
``v``, ``None`` copied from the float64 branch, a ratio inverted, the first state for the
initial weights, ``> 1`` on a dimension test, a fixed field indexed, a neighbouring field,
``f - y`` for the residual, a name left out of an exception list, two dicts merged the other
way round, element 0 for ``element``, an argument not passed on, a backward-compatible alias,
a wrong name in a message, ``self.name`` for ``other``, the old meaning left in place by a
rename).  ``why`` is what the reviewer observed with the mutant applied to a ``git
worktree`` of ``94a99cd`` (small probes, each run on the unmutated copy first, where every
probe gave the expected answer).  The probes: xu_ziyin ``Setup(1, 0.5, 1, (1.7, 0.3),
0.8)``, ``u0 = (0.3, -0.2, 0.1)``, ``W0 = ((0.2, 0.1), (-0.3, 0.4), (0.1, 0.1))`` (closed
form, ``simulate`` scipy / mpmath dps 20) and its ``cases``; each system's ``example()``
(three_layer scipy, kunin wide mpmath, kunin single neuron scipy); a hand-made
``StackedStates``; ``gradient_flow`` of ``TwoLayerLinear`` (B = 3) and of
``SystemModel(NodeScaledSystem)`` (B = 2) with ``FlowResult.states``; ``kernels.gram`` of
the four names on three rows, ``testing.kernel('ntk', ...).check`` of the first-layer Gram
matrix, ``empirical_kernels``; ``kunin.regime`` of the single neuron's example trajectory.

Probed equivalent and left out: ``return k`` for ``return k % n`` in ``check_index`` (every
caller indexes a numpy array or a tensor, where a negative index is the same; only
``check_index(-1, 3)`` itself says ``-1`` instead of ``2``); ``"loss"`` added to
``_finite_rows`` (a row with a finite ``f`` and an infinite loss is re-evaluated with
mpmath and rounds to the same inf: slower only, every probe the same).  Probed, not
equivalent, and left out to keep the table at 20: ``PendingDeprecationWarning`` for the
``DeprecationWarning`` (not a subclass of it: ``pytest.warns(DeprecationWarning)`` would
miss it, and a user script no longer shows it); ``_stack`` storing a 0-d object array
itself (kunin wide mpmath ``simulate``: ``sim.loss[1]`` a 0-d ndarray instead of an mpf);
``_stack``'s dtype ``float`` for the result type (bool and int fields stacked as float64);
the measured xu_ziyin loss halved (the other models' ``1/2`` convention: ``simulate``'s loss
half of the closed form's); ``missing[-1]`` in ``regime``'s TypeError (names
``beta_norm`` for ``regime(0.5)``); ``empirical_kernels``' ``'ntk'`` from the ``W`` block
only (its ``'rf'`` 0); the measured alpha left unrounded in mpmath (134 bits instead of
dps's).  Format: see ``benchmarks/mutation.py``."""

_STATES = "solvable/_core/states.py"
_XZ_TRAJ = "solvable/models/xu_ziyin/trajectory.py"
_XZ_SYSTEM = "solvable/models/xu_ziyin/system.py"
_RESULTS = "numerics/torch_flow/results.py"
_SYMBOLS = "solvable/models/kernels/symbols.py"
# the test hints (by file name; the reviewer did not open them)
_T_STATES = ["tests/test_states.py"]
_T_SIM = ["tests/test_states.py", "tests/test_simulate.py"]
_T_XZ = ["tests/test_states.py", "tests/test_xu_ziyin_float64.py", "tests/test_xu_ziyin_edges.py"]
_T_FLOW = ["tests/test_states.py", "tests/test_torch_flow.py"]
_T_KERNELS = ["tests/test_kernel_names.py", "tests/test_kernels.py"]

MUTANTS = [
    # ------------------------------------------------------------ _core/states.py
    dict(
        name="states_kernel_names_regime.check_index_end_inclusive",
        seed="core",
        backend="numpy",
        file=_STATES,
        old="    if not -n <= k < n:",
        new="    if not -n <= k <= n:",
        why=(
            "the upper bound taken as inclusive: k = n passes and wraps to k % n = 0.  "
            "Observed: closed_form(...).sample(4 times).at(4) returns the state at t = 0 "
            "instead of an IndexError; FlowResult.states(setup, params0, element=3) of a "
            "B = 3 run returns element 0's trajectory instead of an IndexError; at(-5), "
            "at(-4) and at(3) unchanged"
        ),
        tests=[*_T_STATES, "tests/test_torch_flow.py"],
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.deprecated_index_stacklevel_1",
        seed="core",
        backend="numpy",
        file=_STATES,
        old="warnings.warn(DEPRECATED_INDEXING, DeprecationWarning, stacklevel=2)",
        new="warnings.warn(DEPRECATED_INDEXING, DeprecationWarning, stacklevel=1)",
        why=(
            "the deprecation warning attributed to solvable/_core/states.py instead of the "
            "caller's line.  Observed: the warning's filename is states.py, not the probe; "
            "under Python's default filters (a DeprecationWarning is shown only when "
            "attributed to __main__) a user script's states[1] no longer prints the "
            "warning at all (stderr empty instead of '<string>:4: DeprecationWarning: "
            "states[k] ...'); the category and the returned state unchanged"
        ),
        tests=_T_STATES,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.deprecated_slice_by_hand",
        seed="core",
        backend="numpy",
        file=_STATES,
        old="return [self.at(i) for i in range(len(self))[k]]",
        new="return [self.at(i) for i in range(k.start or 0, k.stop or len(self))]",
        why=(
            "the deprecated slice taken apart by hand (start and stop only, no step, no "
            "normalisation).  Observed on 4 times (0, 0.5, 1, 2): states[::2] gives all 4 "
            "instead of (0, 1), states[-2:] gives (1, 2, 0, 0.5, 1, 2) instead of (1, 2), "
            "states[:-1] [] instead of (0, 0.5, 1), states[::-1] in increasing order, "
            "states[0:0] all 4 instead of []; states[1:3] and states[:] unchanged"
        ),
        tests=_T_STATES,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.stack_dict_field_of_first_record",
        seed="core",
        backend="numpy",
        file=_STATES,
        old="fields[f.name] = {key: _stack([v[key] for v in values]) for key in values[0]}",
        new="fields[f.name] = {key: _stack([values[0][key] for v in values]) for key in values[0]}",
        why=(
            "a dict-valued field stacked from the first record T times.  Observed: "
            "three_layer's example simulated (scipy, t = 0, 0.5, 1): sim.params['a'][:, 0] "
            "is (0.7, 0.7, 0.7) instead of (0.7, 0.738, 0.774) and sim.at(-1).params['a'] "
            "(0.7, -0.4) (the initial weights) instead of (0.774, -0.285); the shapes, f and "
            "risk unchanged"
        ),
        tests=_T_SIM,
        claims=[],
    ),
    # ------------------------------------------------------------ numerics.simulate
    dict(
        name="states_kernel_names_regime.simulate_mpmath_stacked_as_float64",
        seed="core",
        backend="mpmath",
        file="numerics/__init__.py",
        old="return system.stack(setup, states, weights, dps)",
        new="return system.stack(setup, states, weights, None)",
        why=(
            "the mpmath path's stack call copied from the float64 branch (dps None).  "
            "Observed: xu_ziyin simulate(..., method='mpmath', dps=20) returns float64 "
            "arrays: alpha[1] numpy.float64 3.5435990915569318 instead of the mpf "
            "3.54359909155693, loss, u, W float64 (the 20 digits lost); the models stacked "
            "by StackedStates (kunin wide) and kunin's single neuron unchanged (their stack "
            "ignores dps)"
        ),
        tests=[*_T_SIM, "tests/test_mpmath_in_mpmath_out.py"],
        claims=["xu_ziyin.theorem_1_oracle"],
    ),
    # ------------------------------------------------------------ xu_ziyin/system.py
    dict(
        name="states_kernel_names_regime.xu_ziyin_alpha_q_ratio_inverted",
        seed="001",
        backend="scipy",
        file=_XZ_SYSTEM,
        old="alphas.append(q0 / np.sum(q * q))",
        new="alphas.append(np.sum(q * q) / q0)",
        why=(
            "where P = 0 < Q, alpha measured as sum q(t)^2 / sum q(0)^2 (= 1/alpha) instead "
            "of its inverse.  Observed (simulate scipy, t = 0.5, 1, 2): case "
            "P_zero_y_negative alpha (0.426, 0.426, 0.426) instead of (2.349, 2.349, 2.349) "
            "(the closed form's), P_zero_y_positive (2.5e-7, 2.1e-13, 1.4e-25) instead of "
            "(4.0e6, 4.8e12, 7.0e24); mpmath dps 30 likewise (0.4256 for 2.3494); P > 0 "
            "cases and the saddle (nan) unchanged"
        ),
        tests=[*_T_SIM, "tests/test_xu_ziyin_cases.py"],
        claims=["xu_ziyin.theorem_1_oracle"],
    ),
    dict(
        name="states_kernel_names_regime.xu_ziyin_alpha_from_first_state",
        seed="001",
        backend="scipy",
        file=_XZ_SYSTEM,
        old='pq_coordinates(setup, initial["u"], initial["W"],',
        new="pq_coordinates(setup, states[0].u, states[0].W,",
        why=(
            "alpha measured relative to the first requested time instead of the initial "
            "weights (the same only when times start at 0).  Observed (simulate scipy, "
            "t = 0.5, 1, 2): generic alpha (1, 1.0012, 1.0012) instead of (1.810, 1.812, "
            "1.812), P_zero_y_negative (1, 0.834, 0.740) instead of 2.349, Q_zero_y_negative "
            "(1, 8.3e-7, 5.7e-19) instead of (2.5e-7, 2.1e-13, 1.4e-25); "
            "FlowResult.states of a torch run at t = 0.5, 1, 2: alpha off by 1.7-3.9; "
            "times starting at 0 unchanged"
        ),
        tests=[*_T_FLOW, "tests/test_simulate.py"],
        claims=[],
    ),
    # ------------------------------------------------------------ States.at of the models
    dict(
        name="states_kernel_names_regime.kunin_at_delta_whole_array",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/states.py",
        old="delta = self.delta[k] if np.ndim(self.delta) else self.delta",
        new="delta = self.delta[k] if np.ndim(self.delta) > 1 else self.delta",
        why=(
            "the dimension test written as '> 1': a measured delta (T,) is never indexed.  "
            "Observed: kunin single neuron simulated (scipy, 3 times): sim.at(1).delta is "
            "the ndarray [0.59 0.59 0.59] instead of the number 0.59; the closed form's "
            "States (delta a number) unchanged"
        ),
        tests=[*_T_SIM, "tests/test_kunin_systems.py"],
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.linear_node_scaling_at_a_indexed",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/states.py",
        old="a=self.a, f=self.f[k]",
        new="a=self.a[k], f=self.f[k]",
        why=(
            "the fixed output weights indexed by the time like every other field.  "
            "Observed: linear_node_scaling.closed_form(Setup(3 x 2 X, lam (1, 0.5, "
            "0.25), 'linear', 0.5), a0 = (1, -1, 2), W0).sample(3 times).at(k).a is the "
            "number a0[k] (1.0, -1.0, 2.0) instead of the vector (1, -1, 2); "
            "Trajectory.at(1.0).a is 1.0; with more times than nodes at(k) would raise "
            "IndexError"
        ),
        tests=[*_T_STATES, "tests/test_linear_node_scaling.py"],
        claims=["linear_node_scaling.trajectory_matches_simulation"],
    ),
    dict(
        name="states_kernel_names_regime.xu_ziyin_at_loss_from_alpha",
        seed="001",
        backend="numpy",
        file=_XZ_TRAJ,
        old="self.ntk[k], self.loss[k])",
        new="self.ntk[k], self.alpha[k])",
        why=(
            "States.at fills the State's loss from the neighbouring field alpha.  "
            "Observed: closed_form(...).sample(4 times).at(2).loss 3.544 (alpha) instead of "
            "0.00169; Trajectory.at(20.0).loss 3.73 instead of 3.7e-68; the arrays "
            "states.loss, and every other field of the State, unchanged"
        ),
        tests=_T_XZ,
        claims=[],
    ),
    # ------------------------------------------------------------ xu_ziyin loss
    dict(
        name="states_kernel_names_regime.xu_ziyin_reference_loss_from_f_minus_y",
        seed="001",
        backend="numpy",
        file=_XZ_TRAJ,
        old="loss = _squared_error(_full_any(r, n))",
        new='loss = _squared_error(f - k["y"])',
        why=(
            "the reference engine (and mpmath) takes the loss from f - y, which cancels as "
            "f -> y, instead of the residual r.  Observed (y = 0.8, t = 0, 5, 10, 20): "
            "sample(..., engine='reference').loss (0.349, 4.4795707e-17, 0, 0) instead of "
            "(0.349, 4.4795708e-17, 4.2e-34, 3.7e-68): relative errors 7.8e-9, 1, 1 "
            "against mpmath at 40 digits (the fast engine, 1e-14, unchanged)"
        ),
        tests=_T_XZ,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.xu_ziyin_fast_loss_from_f_minus_y",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="out.loss[c0:c1] = _squared_error(r)",
        new="out.loss[c0:c1] = _squared_error(f - y)",
        why=(
            "the fast engine takes the loss from f - y (cancellation) instead of the "
            "residual r.  Observed (y = 0.8, t = 0, 5, 10, 20): sample(...).loss (0.349, "
            "4.4795707e-17, 0, 0) instead of (0.349, 4.4795708e-17, 4.2e-34, 3.7e-68); "
            "Trajectory.at(20.0).loss 0.0 instead of 3.7e-68; the reference engine "
            "unchanged (the two engines no longer agree)"
        ),
        tests=_T_XZ,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.xu_ziyin_to_float64_loss_range_checked",
        seed="001",
        backend="numpy",
        file=_XZ_TRAJ,
        old='if name not in ("t", "alpha", "loss"):',
        new='if name not in ("t", "alpha"):',
        why=(
            "the loss left out of the exceptions to the float64 range check when the "
            "extended (mpmath) path rounds to float64.  Observed: Setup(1, 1, 1, (1,), 0), "
            "u0 = (1e153,), W0 = ((1e153,),) (f = 1e306 in range): sample([0, 1e-300, "
            "1e-250]) raises ValueError \"the state's loss at t = 0.0 is 1.0e+612, beyond "
            'the float64 range" instead of returning loss inf (f 1e306, 2.5e299, 2.5e249); '
            "scale 1e100 likewise; the fast path (scale 1e70, loss 1.6e281) and every "
            "in-range probe unchanged"
        ),
        tests=_T_XZ,
        claims=[],
    ),
    # ------------------------------------------------------------ FlowResult.states
    dict(
        name="states_kernel_names_regime.flow_states_initial_overrides_trained",
        seed="core",
        backend="torch",
        file=_RESULTS,
        old="weights = {**initial, **row(self.params, k, element)}",
        new="weights = {**row(self.params, k, element), **initial}",
        why=(
            "the two dicts merged the other way round: the initial weights override the "
            "kept (trained) ones, so every state is measured at the start.  Observed: "
            "TwoLayerLinear B = 3, t = 0.5, 1, 2: res.states(setup, params0, e).u off by "
            "0.28-0.50 from closed_form(...).sample, loss by 0.35-0.62; NodeScaledSystem "
            "(SystemModel, B = 2): W off by 0.33 from simulate(..., 'scipy'); the times and "
            "the fixed block a unchanged"
        ),
        tests=_T_FLOW,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.flow_states_initial_of_element_0",
        seed="core",
        backend="torch",
        file=_RESULTS,
        old="initial = row(params0, element)",
        new="initial = row(params0, 0)",
        why=(
            "the initial weights (the fixed blocks and alpha's reference) read from batch "
            "element 0 whatever element is asked for.  Observed: TwoLayerLinear B = 3: "
            "res.states(setup, params0, 1 / 2 / -1).alpha off by 1.3-1.5 from the closed "
            "form's (u, W, loss still right: both blocks train); element 0 unchanged"
        ),
        tests=_T_FLOW,
        claims=[],
    ),
    # ------------------------------------------------------------ kunin.regime(traj)
    dict(
        name="states_kernel_names_regime.kunin_regime_traj_ignores_ratio",
        seed="003",
        backend="mpmath",
        file="solvable/models/kunin/preconditioners.py",
        old="return str(delta.regime(ratio))",
        new="return str(delta.regime())",
        why=(
            "regime(traj, ratio=...) does not pass the ratio on (the default 10 is used).  "
            "Observed: the single neuron's example trajectory (delta 0.59): "
            "kunin.regime(traj, ratio=1.0) 'intermediate' instead of 'rich' (traj.regime(1.0) "
            "says 'rich'); regime(traj) and regime(traj, ratio=100) unchanged; the "
            "TypeErrors unchanged"
        ),
        tests=["tests/test_kunin_trajectory_regime.py"],
        claims=["kunin.regimes"],
    ),
    # ------------------------------------------------------------ kernel names
    dict(
        name="states_kernel_names_regime.kernels_gp_alias_kept",
        seed="002",
        backend="numpy",
        file=_SYMBOLS,
        old="    if isinstance(value, str) and value in KERNELS:\n        return value\n",
        new="    if isinstance(value, str) and value in KERNELS:\n        return value\n"
        '    if value == "gp":  # the old name of K_GP, still understood\n'
        '        return "nngp"\n',
        why=(
            "a backward-compatible alias: the old 'gp' silently translated to 'nngp'.  "
            "Observed: kernels.gram('gp', init, X) returns the nngp Gram matrix instead of "
            "the ValueError \"name 'gp' was renamed: ... is now 'nngp'\"; "
            "empirical_kernels(..., kernels='gp') a KeyError 'gp' instead of the "
            "ValueError; 'k0' and unknown names unchanged"
        ),
        tests=_T_KERNELS,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.kernels_renamed_gp_names_rf",
        seed="002",
        backend="numpy",
        file=_SYMBOLS,
        old="is now 'nngp'\",",
        new="is now 'rf'\",",
        why=(
            "RENAMED tells the user the wrong new name for 'gp' ('rf', which differs from "
            "K_GP by E[a^2]).  Observed: gram('gp', ...), kernel('gp') and "
            "empirical_kernels(..., kernels='gp') still raise ValueError, with '... is now "
            "'rf' (valid names: ('nngp', 'rf', ...))' instead of 'is now 'nngp''; 'k0' "
            "unchanged"
        ),
        tests=_T_KERNELS,
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.kernel_oracle_hint_names_self",
        seed="002",
        backend="numpy",
        file="solvable/verification/kernel_oracle.py",
        old="hint: it matches kernel {other!r} (",
        new="hint: it matches kernel {self.name!r} (",
        why=(
            "the oracle's hint names the kernel that was asked for instead of the one the "
            "matrix matches.  Observed: testing.kernel('ntk', init, X).check(gram of "
            "'ntk_first_layer') raises AssertionError with 'hint: it matches kernel 'ntk' "
            "(eq. (2.31), the lecture's K_NTK, ...)' instead of 'it matches kernel "
            "'ntk_first_layer''; a matching matrix unchanged"
        ),
        tests=["tests/test_kernel_names.py", "tests/test_oracle.py"],
        claims=[],
    ),
    dict(
        name="states_kernel_names_regime.kernels_closed_form_ntk_first_layer_only",
        seed="002",
        backend="numpy",
        file="solvable/models/kernels/closed_forms.py",
        old='"ntk": rf + first}[name]',
        new='"ntk": first}[name]',
        why=(
            "the rename left the old meaning of 'ntk' (the first layer's part) in the "
            "closed form.  Observed: gram('ntk', Initialisation(1, 1), 3 rows)[0] (0.5, "
            "0.211, -0.043) instead of (1, 0.550, -0.038): 'ntk' - 'rf' - "
            "'ntk_first_layer' = 0.5 instead of 3e-17; empirical_kernels' 'ntk' (1, 0.55, "
            "-0.04) no longer matches it; testing.kernel('ntk').check(first-layer matrix) "
            "passes instead of failing with the hint"
        ),
        tests=_T_KERNELS,
        claims=["kernels.*"],
    ),
]
