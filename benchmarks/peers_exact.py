"""The package's exact solutions against the public anchors' own code, on the same cases:
accuracy (against the package's closed form at 50 digits, itself confirmed at 30 digits
against the raw parameter flow by ``solvable verify``), shapes covered, and time per case.

Peers (loaded from a clone given on the command line; their code is never copied here):

* "Get rich quick" (Kunin et al. 2024, seed 003), github.com/allanraventos/getrichquick:
  ``theory(R, time, w, a, OLS)`` of ``single-neuron/Single_Neuron.ipynb`` (the single
  neuron with whitened inputs; it returns the signed norm ``nu = a |w|`` of ``beta``);
* Dominé, Anguita et al. (2025), github.com/Nico31415/LinearNetworkDynamics:
  ``QQT_lambda_balanced`` of ``qqt_lambda_balanced.py`` (lambda-balanced two-layer
  networks; it returns ``W2 W1``).

Each peer function is taken out of its file by :mod:`ast` (its class or function definition
only, without the file's plotting imports) and run with numpy.  Commands::

    python benchmarks/peers_exact.py --getrichquick PATH --linear-network-dynamics PATH

where each PATH is a clone (a work tree, or a bare git directory: read at HEAD).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import math
import statistics
import subprocess
import time
import warnings
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from solvable import kunin

GRQ_FILE = "single-neuron/Single_Neuron.ipynb"
LND_FILE = "qqt_lambda_balanced.py"


def _read(clone: Path, path: str) -> str:
    """A file of a clone: from its work tree, or at HEAD of a bare git directory."""
    if (clone / path).is_file():
        return (clone / path).read_text()
    return subprocess.run(["git", "--git-dir", str(clone), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout  # fmt: skip


def _definitions(source: str, names: set[str]) -> dict[str, Any]:
    """The top-level functions and classes ``names`` of ``source``, defined with numpy."""
    tree = ast.parse(source)
    kinds = (ast.FunctionDef, ast.ClassDef)
    keep = [node for node in tree.body if isinstance(node, kinds) and node.name in names]
    found = {node.name for node in keep}
    if found != names:
        raise SystemExit(f"peer definitions not found: {sorted(names - found)}")
    scope: dict[str, Any] = {"np": np}
    # the peer's own definitions (parsed above), run in a scope holding numpy only
    exec(compile(ast.Module(body=keep, type_ignores=[]), "<peer>", "exec"), scope)
    return scope


def _grq_theory(clone: Path) -> Any:
    cells = json.loads(_read(clone, GRQ_FILE))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    source = next(text for text in code if "def theory(" in text)
    return _definitions(source, {"theory"})["theory"]


def _lnd_class(clone: Path) -> Any:
    scope = _definitions(_read(clone, LND_FILE), {"QQT_lambda_balanced", "SingularMatrixError"})
    return scope["QQT_lambda_balanced"]


def _rel(got: np.ndarray, ref: np.ndarray) -> float:
    """Relative error of ``got`` (inf where it is not finite) against ``ref``."""
    got = np.asarray(got, dtype=float)
    if not np.all(np.isfinite(got)):
        return math.inf
    return float(np.max(np.abs(got - ref)) / max(np.max(np.abs(ref)), 1e-300))


def _quiet(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` with its prints and warnings silenced."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def _timed(fn: Any, repeat: int = 5) -> float:
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def single_neuron(theory: Any, times: np.ndarray) -> list[dict[str, Any]]:
    """The notebook's setting (``X^T X = I``, ``X^T y = (0, 1)``, unit rates, ``a0 > 0``)
    over its seven ``R = delta`` values and four starts ``beta0``: 28 cases."""
    setup = kunin.Setup(1, 1, np.eye(2), [0.0, 1.0])
    ols = np.array([0.0, 1.0])
    rows = []
    for beta0 in ([-1.0, 0.0], [0.5, 0.5], [0.1, -0.3], [1.5, 0.2]):
        b = np.array(beta0)
        for R in (-4, -2, -1, 0, 1, 2, 4):
            a0 = math.sqrt((R + math.sqrt(R * R + 4 * float(b @ b))) / 2)  # a0 > 0, a0 w0 = b
            w0 = b / a0
            ref_tr = kunin.closed_form(setup, a0, w0, dps=50)
            ref = np.array([float(mpmath.fsum(v * v for v in s.beta) ** 0.5 * mpmath.sign(s.a))
                            for s in ref_tr.sample(times)])  # fmt: skip
            ours_tr = kunin.closed_form(setup, a0, w0)
            ours = ours_tr.sample(times)
            ours_nu = np.linalg.norm(ours.beta, axis=1) * np.sign(ours.a)
            row = dict(R=R, beta0=beta0, ours=_rel(ours_nu, ref))
            # the peer one time at a time (its assertions fail a whole call where one time
            # overflows), then its time per case on the times where it is finite
            peer = np.full(len(times), np.nan)
            refusal = None
            for i, t in enumerate(times):
                try:
                    peer[i] = _quiet(theory, R, np.array([t]), w0, a0, ols)[3][0].real
                except Exception as exc:  # a peer's refusal is a result
                    refusal = refusal or f"{type(exc).__name__}: {exc}"[:80]
            finite = np.isfinite(peer)
            row.update(peer=_rel(peer, ref), peer_refuses=refusal)
            if finite.any():
                ok = times[finite]
                bad = times[~finite]
                row.update(peer_finite_error=_rel(peer[finite], ref[finite]),
                           peer_fails_from=float(bad[0]) if bad.size else None,
                           peer_s=_timed(lambda R=R, a0=a0, w0=w0, ok=ok:
                                         _quiet(theory, R, ok, w0, a0, ols)),
                           ours_s=_timed(lambda a0=a0, w0=w0, ok=ok:
                                         kunin.closed_form(setup, a0, w0).sample(ok)))  # fmt: skip
            rows.append(row)
    return rows


def _whitened(n: int, d: int, c: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Data with ``X^T X = I_d`` (orthonormal columns) and a random target ``Y``."""
    X = np.linalg.qr(rng.standard_normal((n, d)))[0]
    return X, rng.standard_normal((n, c))


def lambda_balanced(peer_cls: Any, times: np.ndarray) -> list[dict[str, Any]]:
    """lambda-balanced two-layer networks (unit rates, whitened inputs): square and
    non-square shapes, every hidden width the balance allows (``h <= c`` at lambda > 0,
    ``h <= d`` at lambda < 0), lambda from -4 to 4 and near 0."""
    rng = np.random.default_rng(0)
    rows = []
    shapes = [(2, 2, 2), (3, 3, 3), (5, 5, 5), (3, 2, 2), (2, 3, 3), (4, 3, 2), (2, 3, 2),
              (3, 3, 2), (4, 4, 1), (3, 4, 2)]  # fmt: skip
    for d, c, h in shapes:
        for lam in (-4.0, -1.0, -1e-9, 1e-9, 0.01, 1.0, 4.0):
            if h > (c if lam > 0 else d):  # the balance Delta = lambda I_h forbids it
                continue
            n = max(d, 2 * max(c, d))
            X, Y = _whitened(n, d, c, rng)
            setup = kunin.WideSetup(1, 1, X, Y)
            try:
                # the layer whose Gram matrix is then positive definite at every lambda
                if lam > 0:
                    A0, W0 = kunin.wide_start(setup, lam, W=rng.standard_normal((h, d)))
                else:
                    A0, W0 = kunin.wide_start(setup, lam, A=rng.standard_normal((h, c)))
            except ValueError:
                continue
            ref_tr = kunin.wide_closed_form(setup, A0, W0, dps=40)
            ref = np.array([[[float(v) for v in row] for row in ref_tr.at(t).beta] for t in times])
            ours = np.array([kunin.wide_closed_form(setup, A0, W0).at(t).beta for t in times])
            row = dict(
                shape=(d, c, h),
                lam=lam,
                ours=_rel(ours, ref),
                condition=kunin.wide_closed_form(setup, A0, W0).condition,
            )
            try:
                with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    # their loss is 1/(2n) |W2 W1 X - Y|^2 over columns: pass sqrt(n) X, sqrt(n) Y
                    q = peer_cls(W0.copy(), A0.T.copy(), math.sqrt(n) * X, math.sqrt(n) * Y, True)
                    peer = []
                    for t in times:
                        q.t = t  # forward() evaluates at time q.t * learning_rate
                        peer.append(q.forward(1.0).T)
                row.update(peer=_rel(np.array(peer), ref))
            except Exception as exc:  # a peer's refusal is a result
                row.update(peer=math.inf, peer_refuses=f"{type(exc).__name__}: {exc}"[:80])
            rows.append(row)
    return rows


def _summary(rows: list[dict[str, Any]], key: str) -> str:
    vals = [r[key] for r in rows if key in r]
    finite = [v for v in vals if math.isfinite(v)]
    worst = max(vals) if vals else math.nan
    med = statistics.median(finite) if finite else math.nan
    return f"worst {worst:.2g}, median {med:.2g}, not finite/refused in {len(vals) - len(finite)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--getrichquick", type=Path, required=True)
    parser.add_argument("--linear-network-dynamics", type=Path, required=True)
    args = parser.parse_args()
    times = np.concatenate([[0.0], np.logspace(-2, 3, 40)])

    rows = single_neuron(_grq_theory(args.getrichquick), times)
    print(f"single neuron, {len(rows)} cases, t in [0, 1000] (relative error of a |w|):")
    print(f"  solvable float64: {_summary(rows, 'ours')}")
    print(f"  getrichquick theory(): {_summary(rows, 'peer')}")
    finite_err = [r["peer_finite_error"] for r in rows if "peer_finite_error" in r]
    print(f"  getrichquick on the times where finite: worst {max(finite_err):.2g}")
    fails = sorted({r["peer_fails_from"] for r in rows if r.get("peer_fails_from")})
    print(
        f"  getrichquick not finite from t = {fails[:3]} on; refuses at every time for R in "
        f"{sorted({r['R'] for r in rows if 'peer_finite_error' not in r})}"
    )
    ratio = [r["ours_s"] / r["peer_s"] for r in rows if "peer_s" in r]
    print(
        f"  time per case (the times where the peer is finite), solvable / getrichquick: "
        f"worst {max(ratio):.2f}, median {statistics.median(ratio):.2f}"
    )

    rows = lambda_balanced(_lnd_class(args.linear_network_dynamics), times[::4])
    print(f"lambda-balanced two-layer, {len(rows)} cases (relative error of beta):")
    for r in rows:
        print(
            f"  (d, c, h) = {r['shape']}, lambda = {r['lam']:g}: solvable {r['ours']:.2g} "
            f"(condition {r['condition']:.2g}), "
            f"peer {r['peer']:.2g} {r.get('peer_refuses', '')}"
        )
    print(f"  solvable: {_summary(rows, 'ours')}")
    print(f"  LinearNetworkDynamics: {_summary(rows, 'peer')}")


if __name__ == "__main__":
    main()
