"""Every request example in README.md and docs/*.md runs against a fresh server per document, in
the order written, and its answer is compared with the one shown.

Two forms of example are recognised:

- an ```http block holding a request (`METHOD /path`, header lines, a blank line, a JSON body),
  followed by an ```http block holding the answer (`HTTP/1.1 200 OK`, the headers to check, a
  blank line, the JSON body);
- a ```console block of `$ curl …` lines, each followed by its output (with `-i`, the status
  line and every header first, as curl prints them: the headers shown are all the answer has,
  unless a line `…` among them says that some are left out).

In a shown answer, `"…"` stands for any value (ids, times), a string ending in `…` for any string
that starts with what comes before it (`"eyJ…"`), `…` among an object's members or as the last
element of an array for members or elements left out; numbers compare within 1e-6. A header's
value `…` stands for any value (`Date: …`), one ending in `…` for any that starts with what
comes before it.
`$SESSION` is the id of the session the latest create answered with (in paths, bodies and
headers); `127.0.0.1:8080` is the test server. The answers are also checked against openapi.json.

Examples of other forms are run by tests of their own below: an event shown as a ```text block
(`id:`, `event:`, `data:`), an answer shown alone as a ```json block, and the README's `curl -N`
that follows a session's events.
"""
import json
import re
import shlex
import subprocess

import pytest

import rawhttp
from access_tokens import AUTH_TOKEN, ENV, bearer
from contract import Contract
from support import ROOT, Pagerd

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
ANY = "\u2026"


class Example:
    def __init__(self, line, method, path, headers, body, status, expected_headers, expected_body, silent=False,
                 all_headers=False):
        self.line, self.method, self.path, self.headers, self.body = line, method, path, headers, body
        self.status, self.expected_headers, self.expected_body = status, expected_headers, expected_body
        # `curl -i` prints every header: then the ones shown are all there are, unless a `…` line
        # among them (a member ANY of expected_headers) says that some are left out.
        self.all_headers = all_headers
        # `$ SESSION=$(curl … | jq -r .id)`: run for the session it creates, its output not shown.
        self.silent = silent

    def __repr__(self):
        return f"line {self.line}: {self.method} {self.path}"


def split_message(text):
    """(first line, headers, body text) of an HTTP message written in a block."""
    head, _, body = text.strip().partition("\n\n")
    lines = head.split("\n")
    headers = {}
    for line in filter(None, lines[1:]):
        name, _, value = line.partition(":")
        headers[name.strip()] = value.strip()
    return lines[0].strip(), headers, body.strip()


def answer(text):
    """(status or None, headers, body text) of a shown answer."""
    if text.startswith("HTTP/"):
        first, headers, body = split_message(text)
        return int(first.split()[1]), headers, body
    return None, {}, text.strip()


def curl_request(command):
    words = shlex.split(command)
    assert words[0] == "curl", command
    method, headers, body, url = None, {}, None, None
    position = 1
    while position < len(words):
        word = words[position]
        if word in ("-X", "--request"):
            method = words[position + 1]
            position += 1
        elif word in ("-H", "--header"):
            name, _, value = words[position + 1].partition(":")
            headers[name.strip()] = value.strip()
            position += 1
        elif word in ("-d", "--data", "--data-raw"):
            body = words[position + 1]
            position += 1
        elif word.startswith("-"):
            pass  # -s, -i: output options
        else:
            url = word
        position += 1
    path = re.sub(r"^(https?://)?[^/]+", "", url) or "/"
    return method or ("POST" if body is not None else "GET"), path, headers, body


def examples(markdown):
    """The examples of a markdown text, in order."""
    found = []
    blocks = [(m.group(1), m.group(2), markdown[: m.start()].count("\n") + 1, m.start(), m.end()) for m in FENCE.finditer(markdown)]
    position = 0
    while position < len(blocks):
        kind, text, line, start, end = blocks[position]
        if kind == "http" and re.match(r"^[A-Z]+ /", text):
            following = blocks[position + 1] if position + 1 < len(blocks) else None
            assert following and following[0] == "http" and following[1].startswith("HTTP/"), \
                f"line {line}: a request example without its answer block right after it"
            assert not markdown[end:following[3]].strip(), f"line {line}: text between a request and its answer"
            first, headers, body = split_message(text)
            method, path = first.split(" ", 1)
            status, expected_headers, expected = answer(following[1])
            found.append(Example(line, method, path, headers, body or None, status, expected_headers, expected))
            position += 2
            continue
        if kind == "console" and "$ curl" in text:
            commands = re.split(r"^\$ ", text, flags=re.M)
            offset = 0
            for chunk in commands[1:]:
                command, _, output = chunk.partition("\n")
                captured = re.fullmatch(r"SESSION=\$\((curl .*?)\s*\|\s*jq -r \.id\)", command.strip())
                if captured:
                    method, path, headers, body = curl_request(captured.group(1))
                    found.append(Example(line + offset, method, path, headers, body, None, {}, "", silent=True))
                    offset += 1 + output.count("\n")
                    continue
                method, path, headers, body = curl_request(command)
                status, expected_headers, expected = answer(output) if output.startswith("HTTP/") else (None, {}, output.strip())
                found.append(Example(line + offset, method, path, headers, body, status, expected_headers, expected,
                                     all_headers=output.startswith("HTTP/")))
                offset += 1 + output.count("\n")
        position += 1
    return found


def parse_expected(text):
    """The shown JSON with its `…` marks made JSON: `"…"` stays a wildcard string, a trailing `…`
    member or element becomes a marker."""
    text = re.sub(r",\s*\u2026\s*,", ', "\u2026": "\u2026",', text)
    text = re.sub(r",\s*\u2026\s*}", ', "\u2026": "\u2026"}', text)
    text = re.sub(r"{\s*\u2026\s*}", '{"\u2026": "\u2026"}', text)
    text = re.sub(r",\s*\u2026\s*]", ', "\u2026"]', text)
    return json.loads(text)


def compare(expected, actual, where="$"):
    if expected == ANY:
        return
    if isinstance(expected, str) and expected.endswith(ANY):
        assert isinstance(actual, str) and actual.startswith(expected[:-1]), f"{where}: {actual!r} instead of {expected!r}"
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        open_ended = expected.get(ANY) == ANY
        keys = [key for key in expected if key != ANY]
        if not open_ended:
            assert set(keys) == set(actual), f"{where}: members {sorted(actual)} instead of {sorted(keys)}"
        for key in keys:
            assert key in actual, f"{where}: no member {key}"
            compare(expected[key], actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected an array, got {actual!r}"
        open_ended = bool(expected) and expected[-1] == ANY
        items = expected[:-1] if open_ended else expected
        if open_ended:
            assert len(actual) >= len(items), f"{where}: {len(actual)} elements, at least {len(items)} shown"
        else:
            assert len(actual) == len(items), f"{where}: {len(actual)} elements instead of {len(items)}"
        for position, item in enumerate(items):
            compare(item, actual[position], f"{where}[{position}]")
    elif isinstance(expected, (int, float)) and not isinstance(expected, bool):
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool) and abs(expected - actual) <= 1e-6, \
            f"{where}: {actual!r} instead of {expected!r}"
    else:
        assert expected == actual, f"{where}: {actual!r} instead of {expected!r}"


def compare_headers(shown, actual, complete, where="headers"):
    """`shown` (name: value as written) against an answer's headers (`actual`, names in lower
    case). With `complete`, the answer has no header beyond those shown, unless `shown` has a
    member ANY (a line `…`)."""
    for name, value in shown.items():
        if name == ANY:
            continue
        got = actual.get(name.lower())
        assert got is not None, f"{where}: no header {name}"
        if value == ANY:
            continue
        if value.endswith(ANY):
            assert got.startswith(value[:-1]), f"{where}: {name}: {got!r} instead of {value!r}"
        else:
            assert got == value, f"{where}: {name}: {got!r} instead of {value!r}"
    if complete and ANY not in shown:
        extra = sorted(set(actual) - {name.lower() for name in shown})
        assert not extra, f"{where}: headers not shown: {', '.join(f'{n}: {actual[n]}' for n in extra)}"


def run(document):
    text = document.read_text()
    found = examples(text)
    server = Pagerd()
    contract = Contract()
    session = None
    try:
        for example in found:
            substitute = (lambda value: value.replace("$SESSION", session or "$SESSION")) if session else (lambda value: value)
            path = substitute(example.path)
            headers = {name: substitute(value) for name, value in example.headers.items()}
            body = substitute(example.body) if example.body is not None else None
            status, response_headers, data = server.request(
                example.method, path, body.encode() if body is not None else None, headers)
            where = f"{document.name} {example}"
            contract.check(example.method, path, status, response_headers, data)
            if example.method == "POST" and path == "/v1/sessions" and status == 201:
                session = json.loads(data)["id"]
            if example.status is not None:
                assert status == example.status, f"{where}: status {status} instead of {example.status}: {data[:300]!r}"
            shown = {name: value.replace("$SESSION", session) if session else value
                     for name, value in example.expected_headers.items()}
            compare_headers(shown, response_headers, example.all_headers, where)
            if example.expected_body:
                try:
                    compare(parse_expected(example.expected_body), json.loads(data))
                except AssertionError as error:
                    raise AssertionError(f"{where}: {error}") from None
            else:
                assert example.status is not None or example.silent, f"{where}: shows neither a status nor a body"
    finally:
        server.stop()
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_examples_answer_as_shown(document):
    run(document)


def test_the_documents_hold_examples():
    counts = {document.name: len(examples(document.read_text())) for document in DOCUMENTS}
    assert counts.get("README.md", 0) >= 5 and counts.get("api.md", 0) >= 40, counts


def test_the_comparison_catches_a_wrong_answer():
    compare(parse_expected('{"a": 1, "b": ["x", \u2026], \u2026}'), {"a": 1.0000001, "b": ["x", "y"], "c": 2})
    compare(parse_expected('{"a": "ey\u2026", \u2026, "z": 1}'), {"a": "eyJhb", "m": 0, "z": 1})
    for shown, actual in [('{"a": 1}', {"a": 2}), ('{"a": 1}', {"a": 1, "b": 2}), ('[1, 2]', [1, 2, 3]),
                          ('{"a": "\u2026"}', {}), ('{"a": [1, \u2026]}', {"a": []}), ('{"a": "ey\u2026"}', {"a": "xy"}),
                          ('{"a": 1, \u2026, "z": 1}', {"a": 1, "z": 2})]:
        with pytest.raises(AssertionError):
            compare(parse_expected(shown), actual)


def test_the_header_comparison_catches_a_wrong_header():
    actual = {"date": "Fri, 27 Nov 2026 00:19:18 GMT", "content-type": "application/json; charset=utf-8",
              "content-length": "15"}
    shown = {"Date": ANY, "Content-Type": "application/json; charset=utf-8", "Content-Length": "15"}
    compare_headers(shown, actual, complete=True)
    compare_headers({"Content-Type": "application/json\u2026", ANY: ""}, actual, complete=True)
    compare_headers({"Content-Length": "15"}, actual, complete=False)
    for wrong, complete in [({**shown, "Content-Length": "16"}, True), ({**shown, "Content-Length": "16"}, False),
                            ({**shown, "Content-Type": "text/plain\u2026"}, True), ({**shown, "ETag": ANY}, False),
                            ({"Date": ANY, "Content-Type": "application/json; charset=utf-8"}, True)]:
        with pytest.raises(AssertionError):
            compare_headers(wrong, actual, complete)


def blocks(kind, test):
    """(document, line, text) of every ```kind block whose text passes `test`."""
    found = []
    for document in DOCUMENTS:
        markdown = document.read_text()
        for match in FENCE.finditer(markdown):
            if match.group(1) == kind and test(match.group(2)):
                found.append((document.name, markdown[: match.start()].count("\n") + 1, match.group(2)))
    return found


def test_shown_events_are_what_a_stream_sends():
    """Each event shown as `id:`/`event:`/`data:` lines is the one a stream sends for that change
    (a `pageChanged` after a `next` on a `media` session)."""
    shown = blocks("text", lambda text: text.startswith("id: "))
    assert shown, "no event example in the documents"
    commands = {"pageChanged": ("POST", "next")}
    for document, line, text in shown:
        fields = dict(row.partition(": ")[::2] for row in text.strip().split("\n"))
        assert fields["event"] in commands, f"{document} line {line}: no command known for {fields['event']}"
        server = Pagerd()
        try:
            sid = server.json("POST", "/v1/sessions", {"template": "media"})[2]["id"]
            stream = rawhttp.EventStream(server.port, sid)
            assert stream.next_event()[1] == "state"
            method, suffix = commands[fields["event"]]
            assert server.json(method, f"/v1/sessions/{sid}/{suffix}")[0] == 200
            version, kind, data = stream.next_event()
            stream.close()
        finally:
            server.stop()
        assert (version, kind) == (int(fields["id"]), fields["event"]), f"{document} line {line}"
        compare(parse_expected(fields["data"]), data, f"{document} line {line}")


def test_shown_answers_with_access_tokens_are_what_the_server_answers():
    """A create's answer shown alone, with its `access` tokens, is what a server with signing keys
    answers to the operator's create."""
    shown = blocks("json", lambda text: '"access"' in text)
    assert shown, "no access example in the documents"
    server = Pagerd(ENV)
    try:
        status, _, created = server.json("POST", "/v1/sessions", {"template": "media"}, bearer(AUTH_TOKEN))
    finally:
        server.stop()
    assert status == 201
    for document, line, text in shown:
        compare(parse_expected(text), created, f"{document} line {line}")


def test_the_readmes_curl_follows_the_events():
    """The README's `curl -N …/events` prints what the README says: the state first (an `event:
    state` with id 1), then one event per change (a `next`: `pageChanged` with id 2); the stream
    stays open, so curl is stopped by its own `--max-time`."""
    command = re.search(r"`(curl -N [^`]*)`", (ROOT / "README.md").read_text()).group(1)
    server = Pagerd()
    try:
        sid = server.json("POST", "/v1/sessions", {"template": "media"})[2]["id"]
        line = command.replace("127.0.0.1:8080", f"127.0.0.1:{server.port}").replace("$SESSION", sid)
        curl = subprocess.Popen([*shlex.split(line), "--max-time", "3", "-s"], stdout=subprocess.PIPE, text=True)

        def next_event():
            """The next event's fields, or None at the end of the output (comments, i.e. heartbeats,
            and the `retry:` block that opens the stream are no events)."""
            rows = []
            while row := curl.stdout.readline():
                if row == "\n" and any(kept.startswith("event:") for kept in rows):
                    break
                if row == "\n":
                    rows = []
                elif not row.startswith(":"):
                    rows.append(row.rstrip("\n"))
            fields = dict(kept.partition(": ")[::2] for kept in rows)
            return fields if "event" in fields else None

        events = [next_event()]
        assert server.json("POST", f"/v1/sessions/{sid}/next")[0] == 200
        events.append(next_event())
        curl.communicate(timeout=10)
        status = curl.returncode
    finally:
        server.stop()
    assert status == 28, status  # curl's "operation timed out": the stream stayed open
    assert events[0] and (events[0]["id"], events[0]["event"]) == ("1", "state"), events
    assert json.loads(events[0]["data"])["id"] == sid
    assert events[1] and (events[1]["id"], events[1]["event"]) == ("2", "pageChanged"), events
    changed = json.loads(events[1]["data"])
    assert (changed["id"], changed["version"], changed["index"], changed["cause"]) == (sid, 2, 1, "request")
