"""Where deep_linear's closed form spends its time at scale (issue 31, item 5): the
construction (``deep_linear.closed_form``: balance, mode extraction at dps + 20 digits) and
``sample`` timed apart, each against the memory floor of the whole output (one
``np.empty`` + ``fill`` as large as it), on the data of ``benchmarks/closed_form_scale.py``'s
``deep_linear_3`` / ``deep_linear_6`` cases (the same seeded setup and start).

The construction does not grow with the number of times, so ``sample / floor`` is what the
ratio tends to for many times; ``(construct + sample) / floor`` is the benchmark's column (b).

    python benchmarks/deep_linear_split.py [--repeat 5]

Prints, per depth, the best of ``repeat`` runs of each part (the three timed back to back in
one process, so that a load change hits all three) and the two ratios.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from closed_form_scale import _deep_linear_data, _n_floats, floor, timed

from solvable.models import deep_linear as dl


def main(argv: Sequence[str] | None = None) -> list[tuple[int, float, float, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rows = []
    for L in (3, 6):
        setup, W0, times = _deep_linear_data(L, quick=False)
        traj = dl.closed_form(setup, W0)
        traj.sample(times[:2])  # the generated evaluators, once per process
        fill = floor(len(times) * _n_floats(traj.sample(times[:1])))
        t_floor = timed(fill, args.repeat)[0]
        t_con = timed(lambda s=setup, w=W0: dl.closed_form(s, w), args.repeat)[0]
        t_smp = timed(lambda tr=traj, ts=times: tr.sample(ts), args.repeat)[0]
        rows.append((L, t_floor, t_con, t_smp))
        print(f"L = {L}: floor {t_floor:.3f} s, construct {t_con:.3f} s, sample {t_smp:.3f} s; "
              f"(construct + sample) / floor {(t_con + t_smp) / t_floor:.1f}x, "
              f"sample / floor {t_smp / t_floor:.1f}x")  # fmt: skip
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return rows


if __name__ == "__main__":
    main()
