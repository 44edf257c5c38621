"""openapi.json, the contract, against the real server: the document is valid OpenAPI 3.1 and the
one the binary serves; every answer of every endpoint, problems and events included, validates
against the schema of its operation and status (an answer the document does not describe fails);
and a third-party generator makes fully typed models of it."""
import ast
import json
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import rawhttp
from access_tokens import AUTH_TOKEN, ENV, bearer, token
from contract import Contract, CheckedServer, load_document, pointer
from support import ROOT, wait_until

DOCUMENT = load_document()


def test_document_is_valid_openapi_and_the_one_served(pagerd):
    from openapi_spec_validator import validate

    validate(DOCUMENT)
    status, headers, served = pagerd.json("GET", "/openapi.json")
    assert status == 200 and headers["content-type"] == "application/json; charset=utf-8"
    assert served == DOCUMENT


def test_every_example_in_the_document_matches_its_schema():
    """The `examples` of every schema (and of every member's schema) validate against it."""
    contract = Contract()
    found = []

    def visit(node, location):
        if isinstance(node, dict):
            if isinstance(node.get("examples"), list):
                found.append(location)
                for number, example in enumerate(node["examples"]):
                    contract.validate_schema(location, example, f"example {number} at {location}")
            for key, value in node.items():
                if key != "examples":
                    visit(value, location + pointer(key))
        elif isinstance(node, list):
            for position, value in enumerate(node):
                visit(value, location + pointer(position))

    visit(DOCUMENT["components"], pointer("components"))
    assert len(found) >= 16 and pointer("components", "schemas", "Settle") in found, found


def test_document_form_suits_generators():
    """The forms client generators read well: nullables as a type list (or anyOf of a reference
    and null), every enum typed, no additionalProperties: false on what the server answers."""

    def walk(node, path):
        if isinstance(node, dict):
            if "oneOf" in node:
                assert not any(branch == {"type": "null"} for branch in node["oneOf"]), f"{path}: oneOf with null"
            if "anyOf" in node:
                branches = node["anyOf"]
                assert len(branches) == 2 and {"type": "null"} in branches and any("$ref" in b for b in branches), path
            if "enum" in node or "const" in node:
                assert node.get("type") in ("string", ["string", "null"]), f"{path}: untyped enum or const"
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for position, value in enumerate(node):
                walk(value, f"{path}/{position}")

    walk(DOCUMENT, "")
    schemas = DOCUMENT["components"]["schemas"]
    requests = set()

    def referenced(node):
        if isinstance(node, dict):
            if "$ref" in node and node["$ref"].startswith("#/components/schemas/"):
                name = node["$ref"].rsplit("/", 1)[1]
                if name not in requests:
                    requests.add(name)
                    referenced(schemas[name])
            for value in node.values():
                referenced(value)
        elif isinstance(node, list):
            for value in node:
                referenced(value)

    for item in DOCUMENT["paths"].values():
        for operation in item.values():
            if "requestBody" in operation:
                referenced(operation["requestBody"])
    for name, schema in schemas.items():
        if schema.get("additionalProperties") is False:
            assert name in requests, f"{name} is answered by the server yet refuses members it does not know"
    assert DOCUMENT["servers"] == [{"url": "/", "description": "The server that serves this document."}]
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            assert "405" in operation["responses"], f"{method} {path} does not list 405"
            if path.startswith("/v1/"):
                assert "401" in operation["responses"], f"{method} {path} does not list 401"


class RecordingContract(Contract):
    """The contract checker, keeping the `code` of every problem document it validated (a problem
    is recorded only once it has matched the document)."""

    def __init__(self, document=None):
        super().__init__(document)
        self.codes = set()

    def check(self, method, path, status, headers, body):
        value = super().check(method, path, status, headers, body)
        if headers.get("content-type", "").startswith("application/problem+json") and isinstance(value, dict):
            self.codes.add(value["code"])
        return value


# Codes of the document's ProblemCode that no test provokes, each with the reason.
UNPROVOKED = {
    "internal_error": "a defect of pagerd (500), never expected: no request is meant to provoke it",
}


def create(server, body):
    status, headers, state = server.json("POST", "/v1/sessions", body)
    assert status == 201, state
    return state["id"]


def read_events(port, sid, count, contract, kinds):
    stream = rawhttp.EventStream(port, sid)
    contract.check("GET", f"/v1/sessions/{sid}/events", stream.status, stream.headers, b"")
    assert stream.status == 200
    for _ in range(count):
        event = stream.next_event()
        if event is None:
            break
        _, kind, data = event
        contract.check_event(kind, data)
        kinds.append(kind)
    stream.close()


def test_every_answer_matches_the_document(pagerd, start_pagerd, tmp_path):
    contract = RecordingContract(DOCUMENT)
    server = CheckedServer(pagerd, contract)
    get, call = server.json, server.request

    # Service endpoints.
    for path in ("/healthz", "/readyz", "/metrics", "/openapi.json", "/", "/demo/app.js", "/demo/app.css", "/demo/nothing.js"):
        call("GET", path)
    call("HEAD", "/healthz")
    call("POST", "/healthz")
    call("GET", "/v2/nothing")
    # Templates.
    status, _, templates = get("GET", "/v1/templates")
    for template in templates["templates"]:
        assert get("GET", f"/v1/templates/{template['name']}")[0] == 200
    assert get("GET", "/v1/templates/nothing")[0] == 404
    call("DELETE", "/v1/templates")

    # A session from every template, and one from pages with every optional member.
    sessions = {t["name"]: create(server, {"template": t["name"]}) for t in templates["templates"]}
    full = create(server, {
        "pages": [
            {"id": "a", "title": "A", "tabWidth": 90, "content": {"n": 1}, "tab": {"icon": "star", "badge": 3},
             "accessibilityLabel": "First", "accessibilityHint": "Opens A", "stack": [{"id": "s1", "title": "S"}]},
            {"id": "b", "title": "B", "tab": {"badge": "new"}}, {"id": "c", "title": "C"},
        ],
        "initialPage": "b", "mode": "bounded", "viewport": {"width": 300, "height": 600}, "layoutDirection": "rtl",
        "orientation": "horizontal", "swipe": "both", "rubberBand": {"style": "resistance", "ratio": 0.5},
        "accessibilityText": {"tabValueFormat": "{position}/{count}"},
        "autoAdvance": {"enabled": True, "interval": 60000, "atEnd": "stop", "onInteraction": "pause"},
        "tabBar": {"layout": "scrollable", "spacing": 4, "inset": 8, "minTabWidth": 40, "tabPadding": 10, "charWidth": 7,
                   "indicator": {"style": "elastic", "height": 3, "overscroll": "bounce", "tracking": "halfway"},
                   "title": {"color": "#112233", "selectedColor": "#445566CC", "scale": 0.9}},
        "preload": 2, "trailingAction": {"id": "add", "title": "Add"},
        "emptyState": {"title": "Nothing", "action": {"id": "add", "title": "Add"}},
    })
    # Every layout setting away from its default: several pages per view, an automatic bar, an
    # inset indicator; a scrollable bar with its own selected width (tabs report baseWidth),
    # centred tabs scrolled to the trailing edge, bounded widths, vertical pages.
    layouts = create(server, {
        "template": "media", "viewport": {"pagesPerView": 1.25, "pageSpacing": 10, "centered": True},
        "tabBar": {"layout": "auto", "maxTabWidth": 120,
                   "indicator": {"inset": {"leading": 8, "trailing": 8, "firstLeading": 12, "lastTrailing": 12}}},
    })
    widened = create(server, {
        "pages": [{"id": f"w{i}", "title": "W" * (i + 1)} for i in range(4)], "orientation": "vertical",
        "viewport": {"pagesPerView": 2, "pageSpacing": 4}, "mode": "loop",
        "tabBar": {"layout": "scrollable", "alignment": "center", "selectedScrollPosition": "trailing",
                   "minTabWidth": 40, "maxTabWidth": 60, "selectedTabWidth": 90},
    })
    for sid in [*sessions.values(), full, layouts, widened]:
        base = f"/v1/sessions/{sid}"
        for path in (base, base + "/settings", base + "/neighbors", base + "/pages"):
            status, headers, _ = get("GET", path)
            assert status == 200
            if "etag" in headers:
                assert call("GET", path, headers={"If-None-Match": headers["etag"]})[0] == 304

    base = f"/v1/sessions/{sessions['media']}"
    steps = [
        ("POST", "/next", None), ("POST", "/previous", {}), ("POST", "/previous", None),
        ("POST", "/select", {"page": "music", "animation": "capped"}), ("POST", "/select", {"index": 0, "path": "shortest"}),
        ("POST", "/scroll", {"progress": 0.25}), ("POST", "/scroll", {"offset": 195}), ("POST", "/scroll", {"windowOffset": 487.5}),
        ("POST", "/transition", {"phase": "end", "completed": True}), ("POST", "/transition", {"phase": "begin", "to": 2}),
        ("POST", "/transition", {"phase": "end", "completed": False}),
        ("PATCH", "", {"tabBar": {"title": {"scale": 0.8}, "indicator": {"style": "fade"}}, "rubberBand": {"style": "linear"}}),
        ("POST", "/scroll", {"progress": 0.6}), ("POST", "/scroll", {"progress": 0}),
        ("POST", "/scroll", {"progress": -0.4}),
        ("PATCH", "", {"tabBar": None, "rubberBand": None, "swipe": "forward"}),
        ("POST", "/scroll", {"progress": 0.5}), ("POST", "/scroll", {"progress": -0.5}),
        ("PATCH", "", {"swipe": None, "autoAdvance": {"enabled": True, "interval": 100000}}),
        ("POST", "/autoAdvance", {"action": "pause"}), ("POST", "/autoAdvance", {"action": "resume"}),
        ("POST", "/autoAdvance", {"action": "stop"}), ("POST", "/autoAdvance", {"action": "start"}),
        ("POST", "/pages", {"page": {"id": "extra", "title": "Extra", "tab": {"icon": "i"}}, "at": 0, "then": "select"}),
        ("PATCH", "/pages/extra", {"title": "Extra!", "tabWidth": None, "tab": {"badge": 7}, "moveTo": 3}),
        ("POST", "/pages/extra/stack", {"screen": {"id": "detail", "title": "Detail", "content": {"x": 1}}}),
        ("DELETE", "/pages/extra/stack", None), ("DELETE", "/pages/extra", None),
        ("PUT", "/pages", {"pages": [{"id": "x", "title": "X"}, {"id": "y", "title": "Y"}]}),
    ]
    for method, suffix, body in steps:
        status, _, answer = get(method, base + suffix, body)
        assert status == 200, (method, suffix, answer)

    # The members the layout settings add, in answers and in the settings document.
    status, _, state = get("GET", f"/v1/sessions/{layouts}")
    assert state["tabBar"]["effectiveLayout"] == "fixed" and state["viewport"]["pageSize"] == 310
    status, _, state = get("GET", f"/v1/sessions/{widened}")
    assert [tab.get("baseWidth") for tab in state["tabs"]] == [40, 48, 56, 60] and state["viewport"]["pageSize"] == 420
    for sid, steps in [
        (layouts, [("POST", "/scroll", {"offset": 100}), ("POST", "/select", {"index": 2}),
                   ("PATCH", "", {"tabBar": {"layout": "scrollable", "selectedTabWidth": 150, "maxTabWidth": None,
                                             "indicator": {"inset": {"firstLeading": None}}},
                                  "viewport": {"centered": None}}),
                   ("POST", "/scroll", {"windowOffset": 100}), ("POST", "/select", {"index": 0, "animation": "capped"})]),
        (widened, [("POST", "/scroll", {"progress": -0.5}), ("POST", "/transition", {"phase": "end", "completed": True}),
                   ("PATCH", "", {"layoutDirection": "rtl", "orientation": "horizontal"}),
                   ("POST", "/scroll", {"offset": 200}),
                   ("PATCH", "", {"tabBar": {"selectedTabWidth": None, "alignment": "trailing"},
                                  "viewport": {"pagesPerView": None, "pageSpacing": None}})]),
    ]:
        for method, suffix, body in steps:
            status, _, answer = get(method, f"/v1/sessions/{sid}" + suffix, body)
            assert status == 200, (method, suffix, answer)
        status, _, settings = get("GET", f"/v1/sessions/{sid}/settings")
        assert status == 200
    # The last PATCH put every page setting back: the state says nothing of them, and no tab
    # reports a base width once no selected width applies.
    assert set(answer["viewport"]) == {"width", "height"} and all("baseWidth" not in tab for tab in answer["tabs"])
    assert settings["viewport"] == {"width": 390, "height": 844, "pagesPerView": 1, "pageSpacing": 0, "centered": False}
    assert settings["tabBar"]["selectedTabWidth"] is None and settings["tabBar"]["maxTabWidth"] == 60
    for body, field in [
        ({"tabBar": {"alignment": "middle"}}, "tabBar.alignment"),
        ({"tabBar": {"selectedScrollPosition": "start"}}, "tabBar.selectedScrollPosition"),
        ({"tabBar": {"indicator": {"inset": {"lastTrailing": -1}}}}, "tabBar.indicator.inset.lastTrailing"),
        ({"tabBar": {"minTabWidth": 80}}, "tabBar.maxTabWidth"),
        ({"tabBar": {"selectedTabWidth": 0}}, "tabBar.selectedTabWidth"),
        ({"tabBar": {"layout": "grid"}}, "tabBar.layout"),
        ({"viewport": {"pagesPerView": 0.5}}, "viewport.pagesPerView"),
        ({"viewport": {"pagesPerView": 3, "pageSpacing": 200}}, "viewport.pageSpacing"),
        ({"viewport": {"centered": "yes"}}, "viewport.centered"),
    ]:
        status, _, problem = get("PATCH", f"/v1/sessions/{widened}", body)
        assert (status, problem["code"], problem.get("field")) == (400, "invalid_request", field), (body, problem)

    piggy = f"/v1/sessions/{sessions['piggybank']}"
    assert get("PATCH", piggy, {"rubberBand": {"style": "linear"}})[0] == 200
    assert get("POST", piggy + "/pages", {"from": "travel", "then": "select"})[0] == 200
    assert get("POST", piggy + "/scroll", {"progress": 0.3})[0] == 200
    status, _, released = get("POST", piggy + "/transition", {"phase": "end", "completed": True})
    assert released["actionRequested"]["id"] == "add-bottle"
    assert get("POST", piggy + "/next")[2]["actionRequested"]["id"] == "add-bottle"
    pose = f"/v1/sessions/{sessions['posepicker']}"
    assert get("POST", pose + "/pages", {"from": "myPage"})[0] == 200
    assert get("POST", pose + "/pages/posepick/stack", {"screen": {"id": "p1"}})[0] == 200
    assert get("DELETE", pose + "/pages/posepick/stack?to=root")[0] == 200

    # Problems of every kind that one server can give.
    empty = f"/v1/sessions/{create(server, {'template': 'piggybank'})}"
    problems = [
        ("POST", "/v1/sessions", "{", {"Content-Type": "application/json"}, "invalid_json"),
        ("POST", "/v1/sessions", {"template": "media", "colour": 1}, None, "invalid_request"),
        ("POST", "/v1/sessions", {"template": "nothing"}, None, "template_not_found"),
        ("POST", "/v1/sessions", {"template": "media", "initialPage": 7}, None, "index_out_of_range"),
        ("POST", "/v1/sessions", {"template": "media", "initialPage": "zzz"}, None, "page_not_found"),
        ("POST", "/v1/sessions", "{}", {"Content-Type": "text/plain"}, "unsupported_media_type"),
        ("GET", "/v1/sessions/nosuchsession", None, None, "session_not_found"),
        ("PUT", base + "/next", None, None, "method_not_allowed"),
        ("POST", base + "/select", {"index": 1, "page": "x"}, None, "invalid_request"),
        ("POST", base + "/select", {"index": 9}, None, "index_out_of_range"),
        ("POST", base + "/select", {"page": "nope"}, None, "page_not_found"),
        ("POST", base + "/scroll", {"progress": 0.1, "offset": 3}, None, "invalid_request"),
        ("POST", base + "/transition", {"phase": "begin", "to": 1}, None, None),
        ("POST", empty + "/next", None, None, "empty_pager"),
        ("POST", base + "/pages", {"page": {"id": "x", "title": "X again"}}, None, "duplicate_page_id"),
        ("DELETE", base + "/pages/x/stack", None, None, "stack_root"),
        ("DELETE", base + "/pages/x/stack?to=top", None, None, "invalid_request"),
        ("PATCH", base + "/pages/x", {"moveTo": 5}, None, "index_out_of_range"),
        ("POST", base + "/next", None, {"If-Match": '"1"'}, "version_mismatch"),
        ("DELETE", base, None, {"If-Match": '"1"'}, "version_mismatch"),
        ("POST", base + "/autoAdvance", {"action": "faster"}, None, "invalid_request"),
        ("PATCH", base, {"tabBar": {"indicator": {"style": "wobbly"}}}, None, "invalid_request"),
    ]
    for method, path, body, headers, code in problems:
        status, _, problem = get(method, path, body, headers)
        if code:
            assert problem["code"] == code, (method, path, problem)
    # x is the current page; a transition begin toward a page that is not a neighbour.
    get("POST", base + "/select", {"index": 0})
    get("PUT", base + "/pages", {"pages": [{"id": f"p{i}", "title": str(i)} for i in range(4)]})
    assert get("POST", base + "/transition", {"phase": "begin", "to": 3})[2]["code"] == "not_a_neighbor"
    assert get("PATCH", base, {"swipe": "reverse"})[0] == 200
    assert get("POST", base + "/transition", {"phase": "begin", "to": 1})[2]["code"] == "swipe_locked"
    deep = {"screen": {"id": "s", "content": {"pad": "x" * 20000}}}
    assert get("POST", base + "/pages/p0/stack", deep)[2]["code"] == "limit_exceeded"
    # Framing refused before routing: a body over the cap, a chunked body.
    status, headers, data = rawhttp.call(pagerd.port, "POST", "/v1/sessions", "x" * 70000, {"Content-Type": "application/json"})
    contract.check("POST", "/v1/sessions", status, headers, data)
    assert status == 413
    conn = rawhttp.Connection(pagerd.port)
    conn.send(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
    status, headers, data = conn.read_response()
    conn.close()
    contract.check("POST", "/v1/sessions", status, headers, data)
    assert status == 411

    # Events: the first state, then changes of every kind, then deleted.
    sid = create(server, {"template": "posepicker", "rubberBand": {"style": "linear"}, "trailingAction": {"id": "more", "title": "More"}})
    kinds = []
    reader = threading.Thread(target=read_events, args=(pagerd.port, sid, 11, contract, kinds))
    reader.start()
    wait_until("the event reader's first event", lambda: list(kinds), 5)
    b = f"/v1/sessions/{sid}"
    for method, suffix, body in [
        ("POST", "/next", None), ("POST", "/scroll", {"progress": 0.5}), ("POST", "/pages", {"from": "bookmark"}),
        ("POST", "/pages/posetalk/stack", {"screen": {"id": "d"}}),
        ("PATCH", "", {"preload": 2, "viewport": {"pagesPerView": 2},
                       "tabBar": {"layout": "scrollable", "selectedTabWidth": 120}}),
        ("POST", "/autoAdvance", {"action": "start"}), ("POST", "/select", {"page": "bookmark"}), ("POST", "/next", None),
        ("POST", "/autoAdvance", {"action": "stop"}),
    ]:
        assert get(method, b + suffix, body)[0] == 200
    assert call("DELETE", b)[0] == 204
    reader.join(timeout=20)
    assert {"state", "pageChanged", "transition", "pagesChanged", "stackChanged", "settingsChanged",
            "actionRequested", "autoAdvanceChanged", "deleted"} <= set(kinds), kinds
    events = rawhttp.EventStream(pagerd.port, "nosuchsession")
    contract.check("GET", "/v1/sessions/nosuchsession/events", events.status, events.headers, events.body)
    events.close()

    # A server with a token, one session at most and a small session budget.
    other = start_pagerd({"PAGERD_AUTH_TOKEN": "secret", "PAGERD_MAX_SESSIONS": "1", "PAGERD_SESSION_BUDGET_BYTES": "8000"})
    guarded = CheckedServer(other, contract)
    auth = {"Authorization": "Bearer secret"}
    assert guarded.json("GET", "/v1/templates")[2]["code"] == "unauthorized"
    assert guarded.json("POST", "/v1/sessions/x/next")[2]["code"] == "unauthorized"
    status, _, state = guarded.json("POST", "/v1/sessions", {"template": "media"}, auth)
    assert status == 201
    assert guarded.json("POST", "/v1/sessions", {"template": "media"}, auth)[2]["code"] == "at_capacity"
    big = {"page": {"id": "big", "title": "Big", "content": {"text": "y" * 9000}}}
    assert guarded.json("POST", f"/v1/sessions/{state['id']}/pages", big, auth)[2]["code"] == "session_budget_exceeded"

    # A server with access keys: tokens in the header and in an event stream's query, minted
    # tokens, refusals (401, 403), and a stream that ends with `expired`.
    keyed = CheckedServer(start_pagerd(ENV), contract)
    operator = bearer(AUTH_TOKEN)
    status, _, created = keyed.json("POST", "/v1/sessions", {"template": "media"}, operator)
    assert status == 201 and set(created["access"]) == {"control", "watch"}
    sid = created["id"]
    control, watch = created["access"]["control"]["token"], created["access"]["watch"]["token"]
    status, _, minted = keyed.json("POST", f"/v1/sessions/{sid}/tokens", {"scope": "drive", "ttl": 120}, bearer(control))
    assert status == 201 and minted["scope"] == "drive"
    for method, path, body, credential, code in [
        ("POST", f"/v1/sessions/{sid}/next", None, bearer(watch), "forbidden"),
        ("POST", f"/v1/sessions/{sid}/tokens", {"scope": "control"}, bearer(control), "forbidden"),
        ("POST", f"/v1/sessions/{sid}/tokens", {"scope": "watch"}, bearer(watch), "forbidden"),
        ("GET", f"/v1/sessions/{sid}", None, bearer(token("watch", sid, lifetime=-60)), "unauthorized"),
        ("GET", f"/v1/sessions/{sid}/events", None, {}, "unauthorized"),
        ("POST", "/v1/sessions/nosuchsession/tokens", {"scope": "watch"}, operator, "session_not_found"),
        ("POST", f"/v1/sessions/{sid}/tokens", {"scope": "watch", "ttl": 1}, operator, "invalid_request"),
    ] + [
        # A watch token of another session reads nothing of this one: 403 on every read.
        ("GET", f"/v1/sessions/{sid}{rest}", None, bearer(token("watch", "another-session")), "forbidden")
        for rest in ("", "/settings", "/pages", "/neighbors", "/events")
    ]:
        assert keyed.json(method, path, body, credential)[2]["code"] == code, (method, path)
    assert keyed.json("POST", f"/v1/sessions/{sid}/next", None, bearer(minted["token"]))[0] == 200
    # Expired 27 s ago, in whole seconds: accepted (30 s of leeway), and the stream ends 2 to 3 s later.
    stream = rawhttp.EventStream(keyed.port, sid, query=f"?access_token={token('watch', sid, exp=int(time.time()) - 27)}")
    contract.check("GET", f"/v1/sessions/{sid}/events", stream.status, stream.headers, b"")
    seen = []
    while (event := stream.next_event()) is not None:
        contract.check_event(event[1], event[2])
        seen.append(event[1])
    stream.close()
    assert seen == ["state", "expired"]
    # Without a key that can sign: 409 signing_unavailable.
    assert get("POST", f"/v1/sessions/{create(server, {'template': 'media'})}/tokens", {"scope": "watch"})[2]["code"] == "signing_unavailable"

    # The server's own 503s: memory_budget_exceeded, storage_unavailable with not_ready, and
    # shutting_down.
    provoke_memory_budget_exceeded(start_pagerd, contract)
    provoke_storage_unavailable(start_pagerd, contract, tmp_path)
    provoke_shutting_down(start_pagerd, contract)

    # What was checked: every operation's success, a 503 of a read, a change and a creation, and a
    # problem of every code the document lists but those no request is meant to provoke.
    operations = {op["operationId"]: op for item in DOCUMENT["paths"].values() for op in item.values()}
    for name, operation in operations.items():
        successes = {int(s) for s in operation["responses"] if s.startswith("2")}
        assert successes & contract.checked.get(name, set()), f"{name}: no success checked"
    for name in ("ready", "getSession", "createSession", "insertPage"):
        assert 503 in contract.checked[name], f"{name}: no 503 checked"
    listed = set(DOCUMENT["components"]["schemas"]["ProblemCode"]["enum"])
    assert set(UNPROVOKED) <= listed, set(UNPROVOKED) - listed
    assert not contract.codes & set(UNPROVOKED), contract.codes & set(UNPROVOKED)
    missing = listed - set(UNPROVOKED) - contract.codes
    assert not missing, f"problem codes never answered and checked: {sorted(missing)}"


def provoke_memory_budget_exceeded(start_pagerd, contract):
    """All sessions together over a 1 MB memory budget: a creation, and pages added to a session
    well under its own budget, are refused 503 memory_budget_exceeded."""
    server = CheckedServer(start_pagerd({"PAGERD_MEMORY_BUDGET_BYTES": "1000000", "PAGERD_SESSION_BUDGET_BYTES": "400000",
                                         "PAGERD_MAX_BODY_BYTES": "262144"}), contract)
    body = {"pages": [{"id": f"p{i}", "title": f"P{i}", "content": {"blob": "x" * 15_000}} for i in range(7)]}
    created, problem = [], None
    for _ in range(40):  # 40 sessions of about 105 KB are four times the budget
        status, headers, answer = server.json("POST", "/v1/sessions", body)
        if status != 201:
            problem = (status, headers.get("retry-after"), answer["code"])
            break
        created.append(answer["id"])
    assert problem is not None and problem[0] == 503, problem
    assert problem[1] and problem[2] == "memory_budget_exceeded", problem
    assert len(created) >= 3
    for i in range(10):  # what a creation of 105 KB found missing, 15 KB at a time
        page = {"page": {"id": f"more{i}", "title": "More", "content": {"blob": "y" * 15_000}}}
        status, _, answer = server.json("POST", f"/v1/sessions/{created[0]}/pages", page)
        if status != 200:
            break
    assert (status, answer["code"]) == (503, "memory_budget_exceeded"), answer


def provoke_storage_unavailable(start_pagerd, contract, tmp_path):
    """A SQLite store whose file cannot grow (the server's RLIMIT_FSIZE lowered: a write fails as on
    a full disk): a change is refused 503 storage_unavailable, /readyz answers 503 not_ready, and
    reads keep working."""
    pagerd = start_pagerd({"PAGERD_STORAGE": "sqlite", "PAGERD_DATA_PATH": str(tmp_path / "pagerd.db")})
    server = CheckedServer(pagerd, contract)
    sid = create(server, {"template": "media"})
    soft, hard = resource.prlimit(pagerd.proc.pid, resource.RLIMIT_FSIZE)
    limit = max(f.stat().st_size for f in tmp_path.iterdir()) + 64 * 1024
    assert hard == resource.RLIM_INFINITY or hard >= limit, f"the hard file-size limit ({hard}) is below {limit}"
    resource.prlimit(pagerd.proc.pid, resource.RLIMIT_FSIZE, (limit, hard))
    try:
        for i in range(100):
            page = {"page": {"id": f"big{i}", "title": "Big", "content": {"blob": "x" * 8000}}}
            status, headers, answer = server.json("POST", f"/v1/sessions/{sid}/pages", page)
            if status != 200:
                break
        assert (status, headers.get("retry-after"), answer["code"]) == (503, "1", "storage_unavailable"), answer
        status, _, answer = server.json("GET", "/readyz")
        assert (status, answer["code"]) == (503, "not_ready"), answer
        assert server.json("GET", f"/v1/sessions/{sid}")[0] == 200
    finally:
        resource.prlimit(pagerd.proc.pid, resource.RLIMIT_FSIZE, (soft, hard))


def provoke_shutting_down(start_pagerd, contract):
    """While pagerd stops (SIGTERM, an upload stuck half-way holding it in its grace period), a
    request on a kept-alive connection is answered 503 shutting_down, and /readyz, asked until it
    closes its connection, answers 503 not_ready or shutting_down (or a 200 the stop overtook)."""
    pagerd = start_pagerd({"PAGERD_SHUTDOWN_GRACE": "3"})
    sid = create(CheckedServer(pagerd, contract), {"template": "media"})
    stuck, probe, late = (rawhttp.Connection(pagerd.port) for _ in range(3))

    def checked(connection, method, path):
        status, headers, body = connection.request(method, path)
        contract.check(method, path, status, headers, body)
        return status, headers, (json.loads(body) if body else None)

    try:
        stuck.send(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                   b"Content-Length: 1000\r\n\r\n" + b'{"template')  # 10 of the 1,000 bytes
        assert checked(probe, "GET", "/readyz")[0] == 200
        assert checked(late, "GET", f"/v1/sessions/{sid}")[0] == 200
        pagerd.proc.send_signal(signal.SIGTERM)
        status, _, answer = wait_until("/readyz closing a kept-alive connection", lambda seen: seen[1].get("connection") == "close",
                                       5, 0.01, observe=lambda: checked(probe, "GET", "/readyz"))
        assert status == 200 or answer["code"] in ("not_ready", "shutting_down"), (status, answer)
        status, headers, answer = checked(late, "GET", f"/v1/sessions/{sid}")
        assert (status, answer["code"], headers["connection"]) == (503, "shutting_down", "close"), (status, answer)
    finally:
        for connection in (stuck, probe, late):
            connection.close()
    assert pagerd.proc.wait(timeout=15) == 0


def test_generated_python_client_is_fully_typed(tmp_path):
    """openapi-python-client makes a typed model of every schema: no model member is typed Any
    (but the open members of a page's content), no operation takes or answers an untyped body (Any,
    or a model with no members of its own), and only a response without content (204, 304) is
    answered as Any."""
    binary = shutil.which("openapi-python-client") or str(Path(sys.executable).parent / "openapi-python-client")
    package = tmp_path / "client"
    result = subprocess.run(
        [binary, "generate", "--path", str(ROOT / "openapi.json"), "--output-path", str(package), "--meta", "none"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "Warning" not in result.stdout, result.stdout[-3000:] + result.stderr[-3000:]

    untyped = []
    models = sorted((package / "models").glob("*.py"))
    model_names, members = set(), {}
    for source in models:
        for node in ast.parse(source.read_text()).body:
            if isinstance(node, ast.ClassDef):
                model_names.add(node.name)
                members[node.name] = 0
                for member in node.body:
                    if isinstance(member, ast.AnnAssign) and member.target.id != "additional_properties":
                        members[node.name] += 1
                        annotation = ast.unparse(member.annotation)
                        if re.search(r"\bAny\b", annotation):
                            untyped.append(f"{node.name}.{member.target.id}: {annotation}")
    for name in DOCUMENT["components"]["schemas"]:
        assert name in model_names or DOCUMENT["components"]["schemas"][name].get("type") == "string" \
            or "oneOf" in DOCUMENT["components"]["schemas"][name], f"no model for {name}"

    operations = 0
    for source in sorted((package / "api").rglob("*.py")):
        text = source.read_text()
        route = re.search(r'"method": "(\w+)",\s*"url": f?"([^"]+)"', text)
        if not route:
            continue
        operations += 1
        method, url = route.groups()
        template = re.sub(r"\{[^}]+\}", lambda m: "{" + m.group(0)[1:-1].split(":")[0] + "}", url)
        template = template.replace("{id_}", "{id}").replace("{page_id}", "{pageId}").replace("{file_}", "{file}")
        operation = DOCUMENT["paths"][template][method]
        bodiless = any("content" not in response for response in operation["responses"].values()
                       if "$ref" not in response) or any(
                       "$ref" in response and response["$ref"].endswith("NotModified")
                       for response in operation["responses"].values())
        for function in ast.parse(text).body:
            if isinstance(function, ast.FunctionDef) and function.name == "sync_detailed":
                for argument in function.args.kwonlyargs + function.args.args:
                    if argument.arg != "body":
                        continue
                    body = ast.unparse(argument.annotation)
                    # Any, or a model of no members of its own (an open object), but Empty.
                    if re.search(r"\bAny\b", body) or any(
                            members.get(name) == 0 for name in re.findall(r"\w+", body) if name != "Empty"):
                        untyped.append(f"{method} {template}: body {body}")
                answer = ast.unparse(function.returns)
                # Any (but where a response has no content), or a model of no members of its own.
                if (re.search(r"\bAny\b", answer) and not bodiless) or any(
                        members.get(name) == 0 for name in re.findall(r"\w+", answer)):
                    untyped.append(f"{method} {template}: answers {answer}")
    assert operations == sum(len(item) for item in DOCUMENT["paths"].values())
    assert not untyped, "\n".join(untyped)
