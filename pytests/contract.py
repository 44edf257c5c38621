"""openapi.json as a checker of real answers: finds the operation a request went to and the
response its status names, and validates the body against that response's schema (JSON Schema
2020-12, the document's own dialect), so an answer the document does not describe fails. Answers
are checked closed: an object schema that lists its members admits no other member, so a member
the server sends and the document does not describe fails too."""
import copy
import json
import re

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from support import ROOT

BASE = "urn:pagerd:openapi"


def load_document():
    return json.loads((ROOT / "openapi.json").read_text())


def pointer(*parts):
    """A JSON pointer into the document, with `~` and `/` escaped."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def closed(document):
    """A copy of the document whose object schemas with `properties` and no word on other members
    admit no other member (`additionalProperties: false`); open objects (a page's content) have no
    `properties` and stay open."""
    document = copy.deepcopy(document)

    def resolve(node):
        while "$ref" in node:
            target = document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def merge(node):
        """An `allOf` of object schemas (a state document plus `access`) as one object schema,
        so that closing each part alone does not refuse the other parts' members."""
        parts = [resolve(part) for part in node["allOf"]]
        if not all(isinstance(part.get("properties"), dict) for part in parts):
            return
        del node["allOf"]
        node["type"] = "object"
        node["properties"] = {name: schema for part in parts for name, schema in part["properties"].items()}
        node["required"] = [name for part in parts for name in part.get("required", [])]

    def close(node):
        if isinstance(node, dict):
            if "allOf" in node:
                merge(node)
            if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for key, value in node.items():
                # Inside `properties` the keys are member names, each naming a schema.
                if key == "properties" and isinstance(value, dict):
                    for member in value.values():
                        close(member)
                else:
                    close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(document["components"])
    close(document["paths"])
    return document


class Contract:
    """The document, and what has been checked against it (operation id → statuses)."""

    def __init__(self, document=None):
        self.document = document or load_document()
        self.registry = Registry().with_resource(BASE, Resource.from_contents(closed(self.document), DRAFT202012))
        self.routes = []
        for template, item in self.document["paths"].items():
            pattern = "^" + re.sub(r"\\\{[A-Za-z]+\\\}", "[^/]+", re.escape(template)) + "$"
            self.routes.append((re.compile(pattern), template))
        self.checked = {}
        self.validators = {}

    def template(self, path):
        path = path.split("?", 1)[0]
        # A literal path wins over a template (/v1/sessions/{id}/next over /v1/sessions/{id}).
        matches = [template for pattern, template in self.routes if pattern.match(path)]
        return min(matches, key=lambda template: template.count("{")) if matches else None

    def operation(self, method, path):
        template = self.template(path)
        method = "get" if method.upper() == "HEAD" else method.lower()
        operation = self.document["paths"][template].get(method)
        return template, method, operation

    def resolve(self, node):
        while "$ref" in node:
            parts = node["$ref"].lstrip("#/").split("/")
            node = self.document
            for part in parts:
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def validator(self, location):
        if location not in self.validators:
            self.validators[location] = Draft202012Validator({"$ref": BASE + "#" + location}, registry=self.registry)
        return self.validators[location]

    def validate_schema(self, location, value, what):
        errors = sorted(self.validator(location).iter_errors(value), key=lambda e: list(e.absolute_path))
        if errors:
            details = "\n".join(f"  at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5])
            raise AssertionError(f"{what} does not match {location}:\n{details}")

    def check(self, method, path, status, headers, body):
        """Validates one answer; `headers` with lower-case names, `body` the bytes."""
        what = f"{method} {path} → {status}"
        if self.template(path) is None:
            # A path the document does not have: 404 not_found, a problem document like any other.
            assert status == 404 and headers.get("content-type", "").startswith("application/problem+json"), what
            self.validate_schema("/components/schemas/Problem", json.loads(body), what)
            return json.loads(body)
        template, verb, operation = self.operation(method, path)
        if operation is None:
            assert status in (404, 405), f"{what}: the document has no {verb} on {template}"
            operation = next(iter(self.document["paths"][template].values()))
            verb = next(iter(self.document["paths"][template]))
        responses = operation["responses"]
        assert str(status) in responses, f"{what}: status not described (described: {', '.join(responses)})"
        response = self.resolve(responses[str(status)])
        self.checked.setdefault(operation["operationId"], set()).add(status)
        content = response.get("content")
        if not content:
            assert not body, f"{what}: a body where the document describes none"
            return None
        media = headers.get("content-type", "").split(";")[0].strip()
        assert media in content, f"{what}: Content-Type {media!r} not described ({', '.join(content)})"
        if media.endswith("json") and method.upper() != "HEAD":
            value = json.loads(body)
            location = self.schema_location(template, verb, str(status), responses[str(status)], media)
            self.validate_schema(location, value, what)
            return value
        return None

    def schema_location(self, template, verb, status, response, media):
        if "$ref" in response:
            base = response["$ref"].lstrip("#")
        else:
            base = pointer("paths", template, verb, "responses", status)
        return base + pointer("content", media, "schema")

    def check_event(self, kind, data):
        """Validates one event-stream event: its kind is listed and its data is an Event (an
        ExpiredEvent for `expired`, the last event of a stream whose token expired)."""
        media = self.document["paths"]["/v1/sessions/{id}/events"]["get"]["responses"]["200"]["content"]["text/event-stream"]
        assert kind in media["x-event-kinds"], f"event kind {kind} not described"
        assert kind in self.resolve({"$ref": "#/components/schemas/EventKind"})["enum"]
        schema = media["x-expired-data" if kind == "expired" else "x-event-data"]["$ref"].lstrip("#")
        self.validate_schema(schema, data, f"the data of a {kind} event")
        self.checked.setdefault("event:" + kind, set()).add(200)


class CheckedServer:
    """A pagerd whose every answer is checked against the document."""

    def __init__(self, server, contract):
        self.server = server
        self.contract = contract
        self.port = server.port

    def request(self, method, path, body=None, headers=None):
        status, response_headers, data = self.server.request(method, path, body, headers)
        self.contract.check(method, path, status, response_headers, data)
        return status, response_headers, data

    def json(self, method, path, body=None, headers=None):
        status, response_headers, data = self.request(method, path, body, headers)
        return status, response_headers, (json.loads(data) if data else None)
