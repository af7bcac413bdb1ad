#!/usr/bin/env python3
"""tests/scripts/json_schema.py TOOL SOURCE_DIR: every kind of record that
`rdmacheck --json` prints validates against doc/output.schema.json, and stdout
holds JSON records only: reports in each mode and engine, with an explanation,
with warnings, X86 tests, `run --json`, `robust --json` (with --repair, a cut
loop, a timeout), `refine --json`, `cross --json`, and errors (a test that does
not parse, a missing file, a timeout)."""
import json, os, subprocess, sys, tempfile

import jsonschema

tool, src = sys.argv[1], sys.argv[2]
schema = json.load(open(os.path.join(src, "doc", "output.schema.json")))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
corpus = os.path.join(src, "litmus", "rdma-tso")
x86 = os.path.join(src, "..", "shared", "conformance", "x86-tso", "tests", "MP.litmus")
failures = []
seen = {"report": 0, "robustness": 0, "difference": 0, "refinement": 0, "error": 0}


def records(args, expect_status):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    if p.returncode != expect_status:
        failures.append("%s: exit %d, expected %d: %s" % (args, p.returncode, expect_status, p.stderr))
    out = []
    for line in p.stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            failures.append("%s: not JSON on stdout: %r" % (args, line))
            continue
        for error in validator.iter_errors(record):
            failures.append("%s: %s at %s" % (args, error.message, list(error.absolute_path)))
        seen[record.get("type", "?")] = seen.get(record.get("type", "?"), 0) + 1
        out.append(record)
    return out


with tempfile.TemporaryDirectory() as tmp:
    bad = os.path.join(tmp, "bad.litmus")
    open(bad, "w").write("RDMA Bad\n{ x@1 = 0; }\nP0@1 { x := ; }\nexists (x = 0)\n")
    loop = os.path.join(tmp, "loop.litmus")
    open(loop, "w").write("RDMA Loop\n{ x@1 = 0; a@1; }\nP0@1 { while (a = 0) { a := x; }; }\n"
                          "P1@1 { x := 1; }\nexists (a = 1)\n")
    deadlock = os.path.join(tmp, "deadlock.litmus")
    open(deadlock, "w").write("RDMA Deadlock\n{ x@1 = 0; y@2 = 0; }\nP0@1 { assume(x = 1); y^2 := 1; }\n"
                              "P1@2 { assume(y = 1); x^1 := 1; }\nforall (x = 1)\n")
    fig3c = os.path.join(corpus, "fig3c-lb-gets-polls.litmus")
    fig3e = os.path.join(corpus, "fig3e-sb-polled-gets.litmus")
    for r in records(["--json", "--no-time", fig3c, fig3e, x86], 0):
        if "time" in r:
            failures.append("--no-time: a report has a time")
    timed = records(["--json", fig3e], 0)
    if not timed or "time" not in timed[0]:
        failures.append("a report without --no-time has no time")
    explained = records(["--json", "--explain", fig3c], 0)
    if not explained or "explanation" not in explained[0] or not explained[0]["explanation"]["forbidden"]:
        failures.append("--explain: no explanation of Fig3c's forbidden outcome in the JSON")
    records(["--json", "--states", fig3e], 0)
    records(["--json", "--speedcheck", fig3e], 0)
    records(["--json", "--deciding-executions", fig3e], 0)
    records(["--json", "--engine", "operational", fig3e], 0)
    warned = records(["--json", "--unroll", "1", loop], 0)
    if not warned or not warned[0]["warnings"] or warned[0]["warnings"][0]["line"] != 3:
        failures.append("--unroll 1: no warning at line 3 of the cut loop: %s" % warned)
    for engine in ("declarative", "operational"):
        stuck = records(["--json", "--engine", engine, deadlock], 0)
        if not stuck or [w["line"] for w in stuck[0]["warnings"]] != [0] or stuck[0]["states"]:
            failures.append("%s: no warning that no execution completes: %s" % (engine, stuck))
    errors = records(["--json", bad, os.path.join(tmp, "missing.litmus")], 2)
    if [(e["type"], e["line"]) for e in errors] != [("error", 3), ("error", 0)]:
        failures.append("errors: expected a positioned error and a missing file, got %s" % errors)
    timeout = records(["--json", "--timeout", "0.000001", fig3e], 2)
    if not timeout or "timeout" not in timeout[0]["message"] or timeout[0]["timeout"] is not True \
            or any(e["timeout"] for e in errors):
        failures.append("--timeout: no error record: %s" % timeout)
    fig3d = os.path.join(corpus, "fig3d-sb-polled-puts.litmus")
    fig3b = os.path.join(corpus, "fig3b-lb-gets.litmus")
    prefix = os.path.join(src, "litmus", "robustness", "rob-prefix-only.litmus")
    robust = records(["robust", "--json", fig3c, fig3d, prefix], 1)
    if [r.get("robust") for r in robust] != [True, False, False] or robust[1]["observable"] is not True \
            or not robust[2]["witness"]["cut"]:
        failures.append("robust --json: expected Fig3c robust, Fig3d and a cut E6 not: %s" % robust)
    repaired = records(["robust", "--json", "--no-time", "--repair", "--repair-dir", tmp, fig3b], 0)
    if not repaired or len(repaired[0].get("repair", {}).get("repairs", [])) != 1:
        failures.append("robust --json --repair: expected one repair of Fig3b: %s" % repaired)
    elif not os.path.isfile(repaired[0]["repair"]["repairs"][0].get("file", "")):
        failures.append("robust --json --repair: no file of the repaired program: %s" % repaired)
    records(["robust", "--json", "--unroll", "1", loop], 0)
    records(["robust", "--json", "--timeout", "0.000001", fig3d], 2)
    records(["robust", "--json", bad], 2)
    rbl = os.path.join(src, "litmus", "rbl", "rbl-mp-put.litmus")
    refined = records(["refine", "--json", "--print", "--impl", "rbl-head-first,sv", "--unroll", "0", rbl], 1)
    if not refined or refined[0].get("ok") is not False or not refined[0].get("counterexamples") \
            or "implementation" not in refined[0]:
        failures.append("refine --json: expected the mutant's counterexamples: %s" % refined)
    records(["refine", "--json", "--impl", "rbl,sv", "--unroll", "0", rbl, bad], 2)
    fig1a = os.path.join(corpus, "fig1a-sb.litmus")
    crossed = records(["cross", "--json", "-j", "1", "--configs", "declarative:rdma-tso,concrete:sc",
                       "--against-first", fig1a, bad], 2)
    if [r.get("type") for r in crossed] != ["difference", "error"] or not crossed[0].get("reproducer"):
        failures.append("cross --json: expected Fig1a's difference, then bad's error: %s" % crossed)
    suite = records(["run", "--json", "--no-progress", corpus, bad], 2)
    if len(suite) != len([f for f in os.listdir(corpus) if f.endswith(".litmus")]) + 1:
        failures.append("run --json: %d records" % len(suite))

if 0 in seen.values():
    failures.append("some record type never appeared: %s" % seen)
for f in failures:
    print("FAIL:", f)
print("json schema: %s checked, %d failures" % (seen, len(failures)))
sys.exit(1 if failures else 0)
