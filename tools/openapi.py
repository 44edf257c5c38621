#!/usr/bin/env python3
"""Writes pagerd's OpenAPI 3.1 document into Sources/PagerAPI/OpenAPIDocument.swift.

`python3 tools/openapi.py` regenerates it; `--print` writes the JSON to stdout instead.
The e2e tests check that the served document equals this output and lists exactly the router's routes.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema):
    return {"oneOf": [schema, {"type": "null"}]}


NUMBER = {"type": "number"}
INTEGER = {"type": "integer"}
INDEX = {"type": "integer", "minimum": 0, "maximum": 9007199254740991}
ANIMATION = {"enum": ["stepped", "direct", "capped"]}
ICON = {"type": "string", "minLength": 1, "maxLength": 2048}
TEXT = {"type": "string", "maxLength": 200}
BADGE = {"oneOf": [{"type": "string", "minLength": 1, "maxLength": 32}, {"type": "integer", "minimum": 0, "maximum": 1000000000}]}
TAB = {"type": "object", "properties": {"icon": ICON, "badge": BADGE}, "additionalProperties": False,
       "description": "The tab's icon (opaque) and badge, echoed as given."}
COLOR = {"type": "string", "pattern": "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"}
SCALE = {"type": "number", "exclusiveMinimum": 0, "maximum": 100}
AUTO_INTERVAL = {"type": "integer", "minimum": 100, "maximum": 86400000, "description": "Milliseconds between ticks."}
THEN = {"enum": ["stay", "select"], "description": "select: the inserted page becomes current."}
LENGTH = {"type": "number", "exclusiveMinimum": 0, "maximum": 1e9}
SPACING = {"type": "number", "minimum": 0, "maximum": 1e9}
STRING = {"type": "string"}
BOOLEAN = {"type": "boolean"}
ID = {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$"}
OBJECT = {"type": "object"}


def obj(properties, required=(), additional=False):
    schema = {"type": "object", "properties": properties, "additionalProperties": additional}
    if required:
        schema["required"] = list(required)
    return schema


FRAME = obj({"x": NUMBER, "width": NUMBER}, ["x", "width"])
SCHEMAS = {
    "Problem": obj(
        {
            "type": {"type": "string", "description": "Always about:blank; `code` carries the specifics."},
            "title": {"type": "string", "description": "The HTTP status phrase."},
            "status": INTEGER,
            "detail": STRING,
            "code": {
                "type": "string",
                "enum": [
                    "invalid_json", "invalid_request", "unauthorized", "not_found", "session_not_found",
                    "page_not_found", "template_not_found", "method_not_allowed", "empty_pager", "stack_root",
                    "duplicate_page_id", "length_required", "version_mismatch", "body_too_large",
                    "unsupported_media_type", "index_out_of_range", "not_a_neighbor", "limit_exceeded",
                    "at_capacity", "not_ready", "shutting_down", "session_budget_exceeded", "memory_budget_exceeded",
                    "storage_unavailable", "swipe_locked",
                ],
            },
            "field": {"type": "string", "description": "The request field at fault, e.g. pages[3].id."},
        },
        ["type", "title", "status", "detail", "code"],
    ),
    "Frame": FRAME,
    "Screen": obj({"id": ID, "title": STRING, "content": OBJECT}, ["id"]),
    "Page": obj(
        {"id": ID, "title": STRING, "tabWidth": NUMBER, "content": OBJECT, "stack": {"type": "array", "items": ref("Screen")},
         "tab": TAB, "accessibilityLabel": TEXT, "accessibilityHint": TEXT},
        ["id", "title", "content", "stack"],
    ),
    "PageInput": obj(
        {
            "id": ID,
            "title": {"type": "string", "maxLength": 200},
            "tabWidth": LENGTH,
            "content": OBJECT,
            "tab": TAB,
            "accessibilityLabel": TEXT,
            "accessibilityHint": TEXT,
            "stack": {"type": "array", "items": ref("Screen")},
        },
        ["id", "title"],
    ),
    "Summary": obj({"index": INTEGER, "id": STRING, "title": STRING}, ["index", "id", "title"]),
    "PreloadedPage": obj(
        {"index": INTEGER, "id": STRING, "title": STRING, "content": OBJECT}, ["index", "id", "title", "content"]
    ),
    "Action": obj({"id": ID, "title": STRING}, ["id", "title"]),
    "EmptyState": obj({"title": STRING, "action": nullable(ref("Action"))}, ["title"]),
    "Tab": obj(
        {"index": INTEGER, "id": STRING, "title": STRING, "x": NUMBER, "width": NUMBER,
         "selection": {"type": "number", "minimum": 0, "maximum": 1, "description": "How strongly the tab is highlighted."},
         "selected": {"type": "boolean", "description": "True for exactly one tab."},
         "color": {"type": "string", "pattern": "^#[0-9A-F]{8}$", "description": "Only when tabBar.title is set."},
         "scale": {"type": "number", "description": "Only when tabBar.title is set."},
         "icon": nullable(ICON), "badge": nullable(BADGE),
         "accessibility": obj({"label": STRING, "hint": nullable(STRING), "value": STRING, "selected": BOOLEAN,
                               "traits": {"type": "array", "items": {"enum": ["button", "selected"]}},
                               "actions": {"type": "array", "items": {"const": "activate"}}},
                              ["label", "hint", "value", "selected", "traits", "actions"])},
        ["index", "id", "title", "x", "width", "selection", "selected", "icon", "badge", "accessibility"],
    ),
    "Indicator": obj(
        {
            "x": {"type": "number", "description": "Unwrapped left edge; outside the bar while wrapping a loop's seam."},
            "width": NUMBER,
            "height": NUMBER,
            "alpha": {"type": "number", "minimum": 0, "maximum": 1, "description": "1, except while a fade indicator crosses between tabs."},
            "segments": {"type": "array", "items": ref("Frame"), "maxItems": 2},
        },
        ["x", "width", "height", "alpha", "segments"],
    ),
    "TabBar": obj(
        {"layout": {"enum": ["fixed", "scrollable", "none"]}, "contentWidth": NUMBER, "offset": NUMBER},
        ["layout", "contentWidth", "offset"],
    ),
    "Transition": obj(
        {
            "from": INTEGER,
            "to": INTEGER,
            "progress": {"type": "number", "minimum": 0, "maximum": 1},
            "direction": {"enum": ["forward", "reverse"]},
        },
        ["from", "to", "progress", "direction"],
    ),
    "Keyframe": obj(
        {"index": INTEGER, "pageOffset": NUMBER, "indicator": nullable(ref("Indicator")), "tabBarOffset": NUMBER,
         "jump": {"type": "boolean", "description": "True only on the first keyframe of a capped jump: reach it without animation."}},
        ["index", "pageOffset", "indicator", "tabBarOffset", "jump"],
    ),
    "State": obj(
        {
            "id": STRING,
            "version": {"type": "integer", "minimum": 1},
            "mode": {"enum": ["bounded", "loop"]},
            "layoutDirection": {"enum": ["ltr", "rtl"]},
            "orientation": {"enum": ["horizontal", "vertical"]},
            "swipe": {"enum": ["both", "forward", "reverse", "none"]},
            "pageCount": INTEGER,
            "index": nullable(INTEGER),
            "empty": BOOLEAN,
            "page": nullable(ref("Page")),
            "canGoPrevious": BOOLEAN,
            "canGoNext": BOOLEAN,
            "previous": nullable(ref("Summary")),
            "next": nullable(ref("Summary")),
            "preload": {"type": "array", "items": ref("PreloadedPage")},
            "trailingAction": nullable(ref("Action")),
            "emptyState": nullable(ref("EmptyState")),
            "viewport": obj({"width": NUMBER, "height": NUMBER}, ["width", "height"]),
            "pageOffset": NUMBER,
            "visible": {"type": "array", "items": obj({"index": INTEGER, "id": STRING,
                                                        "fraction": {"type": "number", "minimum": 0, "maximum": 1}},
                                                       ["index", "id", "fraction"]),
                        "description": "The pages on screen with the fraction of each."},
            "tabs": {"type": "array", "items": ref("Tab")},
            "indicator": nullable(ref("Indicator")),
            "tabBar": ref("TabBar"),
            "transition": nullable(ref("Transition")),
            "moved": {"type": "boolean", "description": "next, previous, select, and transition end: whether the index changed. "
                      "Events of auto-advance ticks carry moved, direction, edge and (for a rewind) keyframes too."},
            "edge": {"enum": ["start", "end"], "description": "The end of a bounded pager a move or scroll met."},
            "direction": {"enum": ["forward", "reverse"], "description": "select (and a tick's event): which way the page went."},
            "keyframes": {"type": "array", "items": ref("Keyframe"),
                          "description": "select: one per step kept by `animation` (all, the target, or at most the last four)."},
            "actionRequested": {**ref("Action"),
                                "description": "next at the end of a bounded pager, or the completed release of a pull past it: the trailing action asked for."},
            "overscroll": nullable(obj({"edge": {"enum": ["start", "end"]}, "progress": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}},
                                       ["edge", "progress"])),
            "accessibility": obj({
                "pager": obj({"value": nullable(STRING), "traits": {"type": "array", "items": {"const": "adjustable"}},
                              "actions": {"type": "array", "items": {"enum": ["increment", "decrement"]}},
                              "platformActions": {"type": "array", "items": {"enum": ["pageLeft", "pageRight", "pageUp", "pageDown"]}}},
                             ["value", "traits", "actions", "platformActions"]),
                "liveRegion": {"enum": ["off", "polite"]}}, ["pager", "liveRegion"]),
            "autoAdvance": obj({
                "enabled": BOOLEAN, "interval": AUTO_INTERVAL, "direction": {"enum": ["forward", "reverse"]},
                "atEnd": {"enum": ["rewind", "stop"]}, "onInteraction": {"enum": ["pause", "stop"]},
                "running": {"type": "boolean", "description": "enabled and at least two pages."},
                "paused": BOOLEAN,
                "pausedBy": nullable({"enum": ["interaction", "control"]}),
                "dueAt": nullable({"type": "integer", "description": "The next tick, in milliseconds since 1970; only while running unpaused."}),
                "remaining": nullable({"type": "integer", "minimum": 0, "description": "Milliseconds left; only while paused."}),
            }, ["enabled", "interval", "direction", "atEnd", "onInteraction", "running", "paused", "pausedBy", "dueAt", "remaining"]),
            "announcement": {"type": "string", "description": "next, previous and select: what a screen reader announces."},
            "cause": {"enum": ["request", "autoAdvance", "idle"], "description": "Only in event-stream events after the first state event."},
            "blocked": {"enum": ["forward", "reverse"],
                        "description": "scroll: the way the progress pointed, which `swipe` locks; nothing changed."},
        },
        [
            "id", "version", "mode", "layoutDirection", "orientation", "swipe", "pageCount", "index", "empty", "page", "canGoPrevious", "canGoNext",
            "previous", "next", "preload", "trailingAction", "emptyState", "viewport", "pageOffset", "visible", "accessibility", "autoAdvance", "tabs",
            "indicator", "tabBar", "overscroll", "transition",
        ],
    ),
    "Settings": obj(
        {
            "mode": {"enum": ["bounded", "loop"]},
            "viewport": nullable(obj({"width": LENGTH, "height": LENGTH})),
            "layoutDirection": {"enum": ["ltr", "rtl"], "description": "rtl mirrors the tab bar and horizontal page offsets; the logical model is unchanged."},
            "orientation": {"enum": ["horizontal", "vertical"], "description": "vertical: pages move by viewport.height."},
            "swipe": {"enum": ["both", "forward", "reverse", "none"], "description": "The ways a user may swipe; commands are never locked."},
            "accessibilityText": nullable(obj({
                "tabValueFormat": TEXT, "pageValueFormat": TEXT, "firstPageMessage": TEXT, "lastPageMessage": TEXT},
            )),
            "autoAdvance": nullable(obj({
                "enabled": BOOLEAN, "interval": AUTO_INTERVAL, "direction": {"enum": ["forward", "reverse"]},
                "atEnd": {"enum": ["rewind", "stop"], "description": "Bounded pagers only."},
                "onInteraction": {"enum": ["pause", "stop"]}})),
            "rubberBand": nullable(obj({"style": {"enum": ["none", "linear", "resistance"]},
                                        "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}})),
            "tabBar": nullable(
                obj(
                    {
                        "layout": {"enum": ["fixed", "scrollable", "none"]},
                        "spacing": SPACING,
                        "inset": SPACING,
                        "minTabWidth": LENGTH,
                        "tabPadding": SPACING,
                        "charWidth": LENGTH,
                        "indicator": nullable(obj({
                            "style": {"enum": ["linear", "elastic", "fade"]}, "height": LENGTH,
                            "progressive": {"type": "boolean", "description": "Fill from the bar's start; not with mode loop."},
                            "overscroll": {"enum": ["none", "bounce", "compress"]},
                            "tracking": {"enum": ["continuous", "halfway", "settled"]},
                        })),
                        "title": nullable(obj({"color": COLOR, "selectedColor": COLOR,
                                               "scale": SCALE, "selectedScale": SCALE})),
                    }
                )
            ),
            "preload": {"type": "integer", "minimum": 0, "maximum": 100},
            "trailingAction": nullable(ref("Action")),
            "emptyState": nullable(ref("EmptyState")),
        }
    ),
    "Template": {
        "type": "object",
        "description": "A template as stored: name, description, the definition members, and its catalog.",
        "properties": {"name": STRING, "description": STRING, "catalog": {"type": "array", "items": ref("Page")}},
        "required": ["name", "description", "catalog"],
    },
    "TemplateList": obj(
        {
            "templates": {
                "type": "array",
                "items": obj(
                    {
                        "name": STRING,
                        "description": STRING,
                        "pageCount": INTEGER,
                        "mode": {"enum": ["bounded", "loop"]},
                        "layout": {"enum": ["fixed", "scrollable", "none"]},
                        "catalog": {"type": "array", "items": STRING},
                    },
                    ["name", "description", "pageCount", "mode", "layout", "catalog"],
                ),
            }
        },
        ["templates"],
    ),
}

CREATE = dict(SCHEMAS["Settings"])
CREATE = obj(
    {
        "template": STRING,
        "pages": {"type": "array", "items": ref("PageInput")},
        "initialPage": {"oneOf": [{"type": "integer", "minimum": 0}, ID]},
        **SCHEMAS["Settings"]["properties"],
    }
)
CREATE["anyOf"] = [{"required": ["template"]}, {"required": ["pages"]}]
CREATE["properties"]["initialPage"] = {"oneOf": [INDEX, ID]}
SCHEMAS["CreateSession"] = CREATE


def problem_response(description):
    return {"description": description, "content": {"application/problem+json": {"schema": ref("Problem")}}}


ETAG = {"ETag": {"description": "The version in quotes, e.g. \"7\".", "schema": STRING}}
RETRY = {"Retry-After": {"description": "Seconds to wait.", "schema": STRING}}
ALLOW = {"Allow": {"description": "Methods the path allows.", "schema": STRING}}

RESPONSES = {
    "BadRequest": problem_response(
        "invalid_json (including a member name twice in one object, or an object of more than 4,096 members), "
        "invalid_request (with `field`), or ambiguous message framing."),
    "Unauthorized": {
        **problem_response("unauthorized: a bearer token is configured and was missing or wrong."),
        "headers": {"WWW-Authenticate": {"schema": STRING}},
    },
    "NotFound": problem_response("session_not_found, page_not_found, template_not_found or not_found."),
    "MethodNotAllowed": {**problem_response("method_not_allowed."), "headers": ALLOW},
    "Conflict": problem_response("empty_pager, stack_root, duplicate_page_id or swipe_locked (a transition begun toward a way `swipe` locks)."),
    "LengthRequired": problem_response("length_required: a chunked body; send a Content-Length."),
    "PreconditionFailed": {**problem_response("version_mismatch: If-Match did not match; nothing changed."), "headers": ETAG},
    "TooLarge": problem_response("body_too_large."),
    "UnsupportedMediaType": problem_response("unsupported_media_type: a body that is not application/json."),
    "Unprocessable": problem_response("index_out_of_range, not_a_neighbor or limit_exceeded."),
    "Unavailable": {
        **problem_response(
            "at_capacity (sessions, or event streams of the server, the session or the client's address), "
            "memory_budget_exceeded (all sessions together hold `memoryBudgetBytes` of data; nothing changed), "
            "storage_unavailable (the change could not be made durable, so it was not made; reads keep working), "
            "or shutting_down."),
        "headers": RETRY,
    },
    "InsufficientStorage": problem_response(
        "session_budget_exceeded: the change would take the session past `sessionBudgetBytes` of data; nothing changed."),
    "State": {
        "description": "The state document.",
        "headers": ETAG,
        "content": {"application/json": {"schema": ref("State")}},
    },
}


def r(name):
    return {"$ref": f"#/components/responses/{name}"}


SESSION_ID = {
    "name": "id", "in": "path", "required": True, "description": "A session id: 22 characters of [A-Za-z0-9_-].",
    "schema": STRING,
}
PAGE_ID = {"name": "pageId", "in": "path", "required": True, "schema": STRING}
IF_MATCH = {
    "name": "If-Match", "in": "header", "required": False, "schema": STRING,
    "description": "Apply only at this version (`\"7\"`, a list, or `*`); otherwise 412 and nothing changes.",
}
IF_NONE_MATCH = {
    "name": "If-None-Match", "in": "header", "required": False, "schema": STRING,
    "description": "Answer 304 when the version still matches.",
}


def errors(*codes):
    names = {
        400: "BadRequest", 401: "Unauthorized", 404: "NotFound", 405: "MethodNotAllowed", 409: "Conflict",
        411: "LengthRequired", 412: "PreconditionFailed", 413: "TooLarge", 415: "UnsupportedMediaType",
        422: "Unprocessable", 503: "Unavailable", 507: "InsufficientStorage",
    }
    return {str(code): r(names[code]) for code in codes}


BODY_ERRORS = (400, 401, 404, 411, 412, 413, 415, 422, 503, 507)


def json_body(schema, required=True, description=None):
    body = {"required": required, "content": {"application/json": {"schema": schema}}}
    if description:
        body["description"] = description
    return body


def command(summary, body=None, extra_errors=(409,), body_required=True, description=None, page=False):
    operation = {
        "summary": summary,
        "parameters": [SESSION_ID] + ([PAGE_ID] if page else []) + [IF_MATCH],
        "responses": {"200": r("State"), **errors(*sorted(set(BODY_ERRORS + tuple(extra_errors))))},
    }
    if description:
        operation["description"] = description
    if body is not None:
        operation["requestBody"] = json_body(body, body_required)
    return operation


EMPTY = obj({})
PATHS = {
    "/healthz": {"get": {"summary": "Liveness", "responses": {"200": {"description": "Running.", "content": {
        "application/json": {"schema": obj({"status": {"const": "ok"}}, ["status"])}}}}}},
    "/readyz": {"get": {"summary": "Readiness", "responses": {
        "200": {"description": "Serving.", "content": {"application/json": {"schema": obj({"status": {"const": "ready"}}, ["status"])}}},
        "503": problem_response("not_ready: starting or stopping, or the store refuses changes (a failed commit, too little disk room, a damaged file, PostgreSQL unreachable); reads are still served."),
    }}},
    "/metrics": {"get": {"summary": "Prometheus metrics", "responses": {"200": {
        "description": "Text exposition format 0.0.4.", "content": {"text/plain": {"schema": STRING}}}}}},
    "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {
        "description": "OpenAPI 3.1.", "content": {"application/json": {"schema": OBJECT}}}}}},
    "/": {"get": {"summary": "The demo web client", "responses": {"200": {
        "description": "HTML page.", "content": {"text/html": {"schema": STRING}}}, "404": problem_response("not_found: no demo folder.")}}},
    "/demo/{file}": {"get": {
        "summary": "The demo's scripts and styles",
        "parameters": [{"name": "file", "in": "path", "required": True, "schema": STRING}],
        "responses": {"200": {"description": "The file.", "content": {"text/javascript": {"schema": STRING}, "text/css": {"schema": STRING}}},
                      "404": problem_response("not_found.")},
    }},
    "/v1/templates": {"get": {"summary": "List templates", "responses": {
        "200": {"description": "Every template.", "content": {"application/json": {"schema": ref("TemplateList")}}},
        **errors(401),
    }}},
    "/v1/templates/{name}": {"get": {
        "summary": "One template",
        "parameters": [{"name": "name", "in": "path", "required": True, "schema": STRING}],
        "responses": {
            "200": {"description": "The template.", "content": {"application/json": {"schema": ref("Template")}}},
            **errors(401, 404),
        },
    }},
    "/v1/sessions": {"post": {
        "summary": "Create a session",
        "description": "From a template (`{\"template\": \"mall\"}`) with overrides merged member by member "
        "(RFC 7396), or from an explicit definition with `pages`.",
        "requestBody": json_body(ref("CreateSession")),
        "responses": {
            "201": {
                "description": "Created.",
                "headers": {**ETAG, "Location": {"schema": STRING}},
                "content": {"application/json": {"schema": ref("State")}},
            },
            **errors(400, 401, 404, 409, 411, 413, 415, 422, 503, 507),
        },
    }},
    "/v1/sessions/{id}": {
        "get": {
            "summary": "The state document",
            "parameters": [SESSION_ID, IF_NONE_MATCH],
            "responses": {"200": r("State"), "304": {"description": "Not modified.", "headers": ETAG}, **errors(401, 404)},
        },
        "patch": command(
            "Change settings (merge patch: viewport, mode, layoutDirection, orientation, swipe, rubberBand, accessibilityText, autoAdvance, tabBar, preload, trailingAction, emptyState)",
            ref("Settings"), extra_errors=(409,), body_required=False,
        ),
        "delete": {
            "summary": "Delete the session",
            "parameters": [SESSION_ID, IF_MATCH],
            "responses": {"204": {"description": "Deleted."}, **errors(401, 404, 412, 503)},
        },
    },
    "/v1/sessions/{id}/next": {"post": command("Move one page forward", EMPTY, body_required=False)},
    "/v1/sessions/{id}/previous": {"post": command("Move one page back", EMPTY, body_required=False)},
    "/v1/sessions/{id}/select": {"post": command(
        "Jump to a page, with keyframes",
        {"oneOf": [
            obj({"index": INDEX, "path": {"enum": ["direct", "shortest"]}, "animation": ANIMATION}, ["index"]),
            obj({"page": ID, "path": {"enum": ["direct", "shortest"]}, "animation": ANIMATION}, ["page"]),
        ]},
    )},
    "/v1/sessions/{id}/scroll": {"post": command(
        "Report swipe progress (exactly one member)",
        {"oneOf": [obj({"progress": NUMBER}, ["progress"]), obj({"offset": NUMBER}, ["offset"]),
                   obj({"windowOffset": NUMBER}, ["windowOffset"])]},
    )},
    "/v1/sessions/{id}/transition": {"post": command(
        "Begin or end a transition",
        {"oneOf": [obj({"phase": {"const": "begin"}, "to": INDEX}, ["phase", "to"]),
                   obj({"phase": {"const": "end"}, "completed": BOOLEAN}, ["phase", "completed"])]},
    )},
    "/v1/sessions/{id}/autoAdvance": {"post": command(
        "Start, stop, pause or resume auto-advance",
        obj({"action": {"enum": ["start", "stop", "pause", "resume"]}}, ["action"]),
        description="Answers the state on any pager; each change bumps the version and publishes autoAdvanceChanged. "
        "It never cancels a transition or clears an overscroll.",
    )},
    "/v1/sessions/{id}/neighbors": {"get": {
        "summary": "Peek at the neighbours without changing anything",
        "parameters": [SESSION_ID],
        "responses": {
            "200": {"description": "The neighbours.", "headers": ETAG, "content": {"application/json": {"schema": obj(
                {"previous": nullable(ref("Summary")), "next": nullable(ref("Summary"))}, ["previous", "next"])}}},
            **errors(401, 404),
        },
    }},
    "/v1/sessions/{id}/pages": {
        "get": {
            "summary": "List pages",
            "parameters": [SESSION_ID],
            "responses": {
                "200": {"description": "The pages.", "headers": ETAG, "content": {"application/json": {"schema": obj(
                    {"pages": {"type": "array", "items": ref("Page")}}, ["pages"])}}},
                **errors(401, 404),
            },
        },
        "post": command(
            "Insert a page (or one from the template's catalog by id)",
            {"oneOf": [obj({"page": ref("PageInput"), "at": INDEX, "then": THEN}, ["page"]),
                       obj({"from": ID, "at": INDEX, "then": THEN}, ["from"])]},
        ),
        "put": command("Replace all pages", obj({"pages": {"type": "array", "items": ref("PageInput")}}, ["pages"])),
    },
    "/v1/sessions/{id}/pages/{pageId}": {
        "patch": command(
            "Update a page (null tabWidth returns to the estimate) or move it",
            obj({"title": {"type": "string", "maxLength": 200}, "content": nullable(OBJECT),
                 "tabWidth": nullable(LENGTH), "moveTo": INDEX,
                 "tab": nullable(obj({"icon": nullable(ICON), "badge": nullable(BADGE)})),
                 "accessibilityLabel": nullable(TEXT), "accessibilityHint": nullable(TEXT)}),
            body_required=False, page=True,
        ),
        "delete": command("Remove a page", page=True),
    },
    "/v1/sessions/{id}/pages/{pageId}/stack": {
        "post": command("Push a screen", obj({"screen": ref("Screen")}, ["screen"]), page=True),
        "delete": {
            **command("Pop a screen, or pop to the root with ?to=root", page=True),
        },
    },
}
PATHS["/v1/sessions/{id}/events"] = {"get": {
    "summary": "Server-Sent Events: the state, then one event per change",
    "description": "First `event: state` with the current state (skipped when Last-Event-ID is already the "
    "current version), then `id: <version>`, `event: <kind>` (pageChanged, transition, pagesChanged, "
    "stackChanged, settingsChanged, actionRequested, autoAdvanceChanged, deleted, and state again when instances sharing "
    "PostgreSQL lost track of the session's changes) and the state document on one `data:` line. "
    "A `: heartbeat` comment is sent every eventHeartbeat seconds. A slow reader gets coalesced updates "
    "ending at the newest state. The stream ends after `deleted`.",
    "parameters": [
        SESSION_ID,
        {"name": "Last-Event-ID", "in": "header", "required": False, "schema": STRING},
        {"name": "lastEventId", "in": "query", "required": False, "schema": STRING,
         "description": "The same as the Last-Event-ID header, for clients that cannot set headers."},
    ],
    "responses": {
        "200": {"description": "An event stream.", "content": {"text/event-stream": {"schema": STRING}}},
        **errors(401, 404, 503),
    },
}}
PATHS["/v1/sessions/{id}/pages/{pageId}/stack"]["delete"]["parameters"] = [
    SESSION_ID, PAGE_ID, IF_MATCH, {"name": "to", "in": "query", "required": False, "schema": {"enum": ["root"]}},
]

DOCUMENT = {
    "openapi": "3.1.0",
    "info": {
        "title": "pagerd",
        "version": "1.0.0",
        "description": "A headless pager engine. Every error the server raises is RFC 9457 application/problem+json "
        "with a stable `code`; libmicrohttpd answers some protocol errors itself as text/html (over-long request "
        "line or headers, a malformed request line, HTTP/1.1 without Host).",
    },
    "servers": [{"url": "http://127.0.0.1:8080"}],
    "components": {
        "schemas": SCHEMAS,
        "responses": RESPONSES,
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                       "description": "Required on /v1 routes when pagerd is configured with a token."}},
    },
    "paths": PATHS,
}
OPERATION_IDS = {
    ("/healthz", "get"): "health", ("/readyz", "get"): "ready", ("/metrics", "get"): "metrics",
    ("/openapi.json", "get"): "openapi", ("/", "get"): "demo", ("/demo/{file}", "get"): "demoFile", ("/v1/templates", "get"): "listTemplates",
    ("/v1/templates/{name}", "get"): "getTemplate", ("/v1/sessions", "post"): "createSession",
    ("/v1/sessions/{id}", "get"): "getSession", ("/v1/sessions/{id}", "patch"): "patchSession",
    ("/v1/sessions/{id}", "delete"): "deleteSession", ("/v1/sessions/{id}/next", "post"): "next",
    ("/v1/sessions/{id}/previous", "post"): "previous", ("/v1/sessions/{id}/select", "post"): "select",
    ("/v1/sessions/{id}/scroll", "post"): "scroll", ("/v1/sessions/{id}/transition", "post"): "transition",
    ("/v1/sessions/{id}/autoAdvance", "post"): "autoAdvance", ("/v1/sessions/{id}/neighbors", "get"): "neighbors", ("/v1/sessions/{id}/pages", "get"): "listPages",
    ("/v1/sessions/{id}/pages", "post"): "insertPage", ("/v1/sessions/{id}/pages", "put"): "replacePages",
    ("/v1/sessions/{id}/pages/{pageId}", "patch"): "updatePage",
    ("/v1/sessions/{id}/pages/{pageId}", "delete"): "removePage",
    ("/v1/sessions/{id}/pages/{pageId}/stack", "post"): "pushScreen",
    ("/v1/sessions/{id}/pages/{pageId}/stack", "delete"): "popScreen",
    ("/v1/sessions/{id}/events", "get"): "streamEvents",
}
for (path, method), operation_id in OPERATION_IDS.items():
    PATHS[path][method]["operationId"] = operation_id

# Links let clients (and schemathesis) follow a created session into every operation on it.
LINKS = {}
for (path, method), operation_id in OPERATION_IDS.items():
    if path.startswith("/v1/sessions/{id}") and operation_id != "streamEvents":
        parameters = {"id": "$response.body#/id"}
        if "{pageId}" in path:
            parameters["pageId"] = "$response.body#/page/id"
        LINKS[operation_id] = {"operationId": operation_id, "parameters": parameters}
PATHS["/v1/sessions"]["post"]["responses"]["201"]["links"] = LINKS

for path, item in PATHS.items():
    if path.startswith("/v1/"):
        for operation in item.values():
            operation["security"] = [{}, {"bearer": []}]


def render():
    return json.dumps(DOCUMENT, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def swift_source(text):
    return (
        "// Generated by tools/openapi.py (`make openapi`); edit that script, not this file.\n"
        "/// The OpenAPI 3.1 document served at `/openapi.json`.\n"
        "enum OpenAPIDocument {\n"
        "    static let bytes: [UInt8] = Array(text.utf8)\n\n"
        "    static let text = #\"\"\"\n" + text + "\n\"\"\"#\n}\n"
    )


if __name__ == "__main__":
    if "--print" in sys.argv:
        print(render())
    else:
        (ROOT / "Sources/PagerAPI/OpenAPIDocument.swift").write_text(swift_source(render()))
