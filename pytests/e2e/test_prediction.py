"""web/pagerd.js's predictScroll against the real server, in Node: the conformance table and a
seeded random sweep (web/test/conformance.mjs), and the worked examples of the layout rules
(web/test/examples.mjs). Prints the number of cases and the largest difference."""
import json
import shutil
import subprocess

from support import ROOT


def node():
    path = shutil.which("node")
    assert path, "node is missing: `make browser-deps` installs Debian's nodejs"
    return path


def run_node(*args, timeout=600):
    """Runs node with `args` (a script of web/test and its arguments, or --test and one)."""
    args = [arg if not arg.endswith(".mjs") else str(ROOT / "web" / "test" / arg) for arg in args]
    return subprocess.run([node(), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_prediction_matches_the_server_over_the_table_and_a_random_sweep(pagerd):
    result = run_node("conformance.mjs", "--base", f"http://127.0.0.1:{pagerd.port}", "--seed", "20251126", "--sweep", "400")
    lines = result.stdout.strip().splitlines()
    assert lines, result.stderr
    summary = json.loads(lines[-1])
    print(f"\nprediction conformance: {summary['cases']} cases ({summary['tableCases']} in the table over "
          f"{summary['configs']} settings, {summary['sweepCases']} in the sweep, {summary['edgeCases']} refusals and extreme inputs), "
          f"largest difference {summary['maxDiff']:.3g}, "
          f"{summary['requests']} requests in {summary['seconds']} s")
    assert result.returncode == 0, result.stderr[-4000:]
    assert summary["differences"] == 0
    assert summary["maxDiff"] <= 1e-6
    assert summary["tableCases"] > 70000 and summary["sweepCases"] >= 4000 and summary["edgeCases"] >= 40
    # The table adds the configs of the layout settings (docs/api.md, «Layouts») only for settings the server's settings document
    # lists: every one of them must have been covered, not skipped.
    layout = summary["layoutConfigs"]
    assert set(layout) == {"alignment", "selectedScrollPosition", "indicatorInset", "maxTabWidth", "selectedTabWidth", "pagesPerView"}
    assert all(count > 0 for count in layout.values()), f"layout settings skipped: {layout}"
    # With several pages per view, offsets and window offsets span a stride either side of the
    # rest position, as progress does (not inputs clamped at ±1).
    coverage = summary["coverage"]
    for form in ("progress", "offset", "windowOffset"):
        assert coverage[form]["pagesCases"] > 0
        assert coverage[form]["pagesInside"] >= 0.85 * coverage[form]["pagesCases"], coverage


def test_prediction_follows_the_worked_examples_of_the_layout_settings():
    result = run_node("--test", "examples.test.mjs")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# pass 26" in result.stdout
