"""web/pagerd.js's predictScroll against the real server, in Node: the conformance table and a
seeded random sweep (web/test/conformance.mjs), and the worked examples of the layout rules
(web/test/examples.mjs). Prints the number of cases and the largest difference."""
import json
import shutil
import subprocess

from support import ROOT


def node():
    path = shutil.which("node")
    assert path, "node is missing: `make node-deps` installs Debian's nodejs"
    return path


def run_node(script, *args, timeout=600):
    result = subprocess.run([node(), str(ROOT / "web" / "test" / script), *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=timeout)
    return result


def test_prediction_matches_the_server_over_the_table_and_a_random_sweep(pagerd):
    result = run_node("conformance.mjs", "--base", f"http://127.0.0.1:{pagerd.port}", "--seed", "20251126", "--sweep", "400")
    lines = result.stdout.strip().splitlines()
    assert lines, result.stderr
    summary = json.loads(lines[-1])
    print(f"\nprediction conformance: {summary['cases']} cases ({summary['tableCases']} in the table over "
          f"{summary['configs']} settings, {summary['sweepCases']} in the sweep, {summary['refusals']} refusals), "
          f"largest difference {summary['maxDiff']:.3g}, {summary['slivers']} server slivers, "
          f"{summary['requests']} requests in {summary['seconds']} s")
    assert result.returncode == 0, result.stderr[-4000:]
    assert summary["differences"] == 0
    assert summary["maxDiff"] <= 1e-6
    assert summary["tableCases"] > 70000 and summary["sweepCases"] >= 4000 and summary["refusals"] >= 20
