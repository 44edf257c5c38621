#!/usr/bin/env bash
# One real API call through the container: create a mall session and move it. BASE_URL is set
# by the container check.
set -euo pipefail
curl -fsS "$BASE_URL/v1/templates" > /dev/null
state=$(curl -fsS -X POST "$BASE_URL/v1/sessions" -H 'Content-Type: application/json' -d '{"template": "mall"}')
id=$(printf '%s' "$state" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
moved=$(curl -fsS -X POST "$BASE_URL/v1/sessions/$id/next")
printf '%s' "$moved" | python3 -c 'import json, sys; s = json.load(sys.stdin); assert (s["index"], s["version"]) == (1, 2), s'
echo "session $id moved to index 1 through the container"
