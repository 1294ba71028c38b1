#!/usr/bin/env python3
"""Reads perpsim's Arrow files into pandas: ``events.arrow`` of ``perpsim run`` (the event
log) or ``fills.arrow`` of ``perpsim backtest`` (one row per fill). Needs pyarrow and pandas
(``pip install pyarrow pandas``; not needed by the client itself).

    python3 examples/read_arrow.py out/run-default-7/events.arrow
    python3 examples/read_arrow.py out/backtest-market-maker-default-7/fills.arrow
"""

from __future__ import annotations

import sys
from decimal import Decimal


def read_arrow(path: str):  # -> pandas.DataFrame
    """The file as a DataFrame (both are Arrow IPC *files*: ``pyarrow.ipc.open_file``)."""
    import pyarrow.ipc as ipc

    with ipc.open_file(path) as reader:
        return reader.read_all().to_pandas()


def summarize(frame) -> str:
    """A few lines about an events or fills frame."""
    lines = [f"{len(frame)} rows, columns: {', '.join(frame.columns)}"]
    if "kind" in frame.columns:  # events.arrow
        counts = frame["kind"].value_counts()
        lines.append("events by kind: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        trades = frame[frame["kind"] == "trade"]
        if len(trades):
            lines.append(f"trades: {len(trades)}, volume {int(trades['qty'].sum())} lots")
    if "fee" in frame.columns:  # fills.arrow: money is exact decimal text
        fees = sum((Decimal(x) for x in frame["fee"]), Decimal(0))
        lines.append(f"fills: {len(frame)}, fees {fees}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: read_arrow.py FILE.arrow", file=sys.stderr)
        return 2
    try:
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        print("read_arrow: needs pyarrow and pandas (pip install pyarrow pandas)", file=sys.stderr)
        return 2
    try:
        frame = read_arrow(argv[0])
    except (OSError, ValueError) as e:
        print(f"read_arrow: {argv[0]}: {e}", file=sys.stderr)
        return 1
    print(summarize(frame))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
