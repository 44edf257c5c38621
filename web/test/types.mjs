// web/pagerd.d.ts against real documents: gathers state documents (answers of every kind of
// command, events, an empty pager, a pager with every optional member), the settings, the
// templates, the pages and a problem from a running pagerd, and checks that every member of
// each is declared in the interface of its place in pagerd.d.ts, recursively, and that every
// member an interface declares required is present.
//
//   node web/test/types.mjs --base http://127.0.0.1:PORT
import { readFileSync } from "node:fs";
import http from "node:http";
import { Server } from "./harness.mjs";

const base = process.argv[process.argv.indexOf("--base") + 1];
const server = new Server(base);
const source = readFileSync(new URL("../pagerd.d.ts", import.meta.url), "utf8");

/** interface name → {members: name → {type, optional}} from the d.ts (one member per line). */
function parseInterfaces(text) {
  const interfaces = new Map();
  const pattern = /export interface (\w+)(?:<[^>]*>)?(?: extends [\w, ]+)? \{\n([\s\S]*?)\n\}/g;
  for (const [, name, body] of text.matchAll(pattern)) {
    const members = new Map();
    for (const line of body.split("\n")) {
      const member = /^ {2}(\w+)(\?)?: (.+);$/.exec(line);
      if (member) members.set(member[1], { type: member[3], optional: Boolean(member[2]) });
    }
    interfaces.set(name, { members });
  }
  return interfaces;
}

const interfaces = parseInterfaces(source);
const problems = [];
let checkedMembers = 0;

/** The interfaces a declared type names (`Frame[] | null` → ["Frame"]). */
function named(type) {
  return type.split("|").map((part) => part.trim().replace(/[()]/g, "").replace(/\[\]$/, "")).filter((part) => interfaces.has(part));
}

function check(value, interfaceName, path) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => check(item, interfaceName, `${path}[${i}]`));
    return;
  }
  if (value === null || typeof value !== "object") return;
  const declared = interfaces.get(interfaceName);
  for (const [key, member] of declared.members) {
    if (!member.optional && !(key in value)) problems.push(`${path}: ${interfaceName}.${key} is declared required but missing`);
  }
  for (const [key, item] of Object.entries(value)) {
    checkedMembers += 1;
    const member = declared.members.get(key);
    if (!member) {
      problems.push(`${path}.${key}: not declared in ${interfaceName}`);
      continue;
    }
    const inner = named(member.type);
    if (inner.length === 1) check(item, inner[0], `${path}.${key}`);
    else if (inner.length > 1) problems.push(`${path}.${key}: ${member.type} names several interfaces`);
  }
}

/** The first `count` events of a session's stream, each `{kind, data}`. */
function events(id, count, act) {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const request = http.get({ host: url.hostname, port: url.port, path: `/v1/sessions/${id}/events`, headers: { Accept: "text/event-stream" } }, (response) => {
      let buffer = "";
      const found = [];
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const kind = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (kind && data) found.push({ kind, data: JSON.parse(data) });
          if (found.length === 1 && kind) act();
          if (found.length >= count) {
            request.destroy();
            resolve(found);
          }
        }
      });
    });
    request.on("error", (error) => { if (error.code !== "ECONNRESET") reject(error); });
  });
}

const states = [];
const keep = (label, doc) => { states.push([label, doc]); return doc; };
const post = (id, suffix, body) => server.json("POST", `/v1/sessions/${id}${suffix}`, body);

const rich = {
  pages: [
    { id: "inbox", title: "Inbox", tab: { icon: "tray", badge: 12 }, accessibilityLabel: "Mail", accessibilityHint: "Your mail", content: { n: 1 } },
    { id: "sent", title: "Sent", tab: { badge: "new" }, stack: [{ id: "draft", title: "Draft", content: { a: 1 } }] },
    { id: "spam", title: "Spam" },
  ],
  rubberBand: { style: "linear" },
  trailingAction: { id: "more", title: "More" },
  tabBar: { title: { scale: 0.9 }, indicator: { overscroll: "bounce" } },
  autoAdvance: { enabled: true, interval: 60000 },
};
const created = keep("create", await server.json("POST", "/v1/sessions", rich, 201));
const id = created.id;
keep("scroll", await post(id, "/scroll", { progress: 0.3 }));
keep("scroll past the start", await post(id, "/scroll", { progress: -0.3 }));
keep("select", await post(id, "/select", { index: 2 }));
keep("next at the end", await post(id, "/next"));
keep("pull past the end", await post(id, "/scroll", { progress: 0.4 }));
keep("release past the end", await post(id, "/transition", { phase: "end", completed: true }));
keep("push", await post(id, "/pages/sent/stack", { screen: { id: "more", title: "More" } }));
keep("auto-advance paused", await post(id, "/autoAdvance", { action: "pause" }));
keep("patch", await server.json("PATCH", `/v1/sessions/${id}`, { swipe: "none" }));
keep("blocked", await post(id, "/scroll", { progress: 0.2 }));
const stream = events(id, 3, () => post(id, "/previous").then(() => post(id, "/autoAdvance", { action: "resume" })));
for (const event of await stream) keep(`event ${event.kind}`, event.data);
const empty = await server.json("POST", "/v1/sessions", { template: "piggybank" }, 201);
keep("empty", empty);
keep("insert", await post(empty.id, "/pages", { from: "gift", then: "select" }));
keep("auto layout, scrollable", await server.json("POST", "/v1/sessions", { template: "media", tabBar: { layout: "scrollable" }, layoutDirection: "rtl", orientation: "vertical" }, 201));

for (const [label, doc] of states) check(doc, "State", label);
check(await server.json("GET", `/v1/sessions/${id}/settings`), "Settings", "settings");
check(await server.json("GET", `/v1/sessions/${created.id}/settings`), "Settings", "settings (titles)");
check((await server.json("GET", "/v1/templates")).templates, "TemplateSummary", "templates");
check((await server.json("GET", `/v1/sessions/${id}/pages`)).pages, "Page", "pages");
const refused = await server.call("POST", `/v1/sessions/${id}/select`, { index: 9 });
check(refused.body, "Problem", "problem");

// Every member of the State schema of /openapi.json is declared.
const openapi = await server.json("GET", "/openapi.json");
for (const key of Object.keys(openapi.components.schemas.State.properties)) {
  if (!interfaces.get("State").members.has(key)) problems.push(`openapi State.${key}: not declared in State`);
}
server.close();
console.log(JSON.stringify({ documents: states.length + 5, checkedMembers, interfaces: interfaces.size, problems: problems.length }));
for (const problem of problems) console.error(problem);
process.exit(problems.length ? 1 : 0);
