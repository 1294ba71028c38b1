#!/usr/bin/env python3
"""Runs the client's tests (stdlib unittest) and ends with ``python: N passed, N failed``.

Without ``$PERPSIM_URL`` the tests start their own ``perpsim serve --scenario empty --manual
--port 0`` from this checkout. ``--counts FILE`` also writes ``{"passed", "failed"}`` as JSON
(what ``.ci/run`` adds to vitest's counts). Exit code 0 only when nothing failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", help="write the counts as JSON to this file")
    parser.add_argument("pattern", nargs="?", default="test_*.py")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    suite = unittest.defaultTestLoader.discover(str(HERE / "tests"), pattern=args.pattern, top_level_dir=str(HERE))
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped)
    if args.counts:
        Path(args.counts).write_text(json.dumps({"passed": passed, "failed": failed, "skipped": len(result.skipped)}))
    print(f"python: {passed} passed, {failed} failed")
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
