// web/pagerd.d.ts against real documents: gathers state documents (answers of every kind of
// command, events, an empty pager, a pager with every optional member), the settings, the
// templates, the pages and a problem from a running pagerd, and checks that every member of
// each is declared in the interface of its place in pagerd.d.ts, recursively, and that every
// member an interface declares required is present. Then, for every object schema of
// /openapi.json that an interface mirrors (found by following the members' types from the
// documents' roots), that both list the same members, required and nullable alike.
//
//   node web/test/types.mjs --base http://127.0.0.1:PORT
import { readFileSync } from "node:fs";
import http from "node:http";
import { Server } from "./harness.mjs";

const base = process.argv[process.argv.indexOf("--base") + 1];
const server = new Server(base);
const source = readFileSync(new URL("../pagerd.d.ts", import.meta.url), "utf8");

/**
 * interface name → {members: name → {type, optional}} from the d.ts (one member per line); a
 * line that starts a member but is not one such line is a problem, so that no member is missed.
 */
function parseInterfaces(text) {
  const interfaces = new Map();
  const pattern = /export interface (\w+)(?:<[^>]*>)?(?: extends [\w, ]+)? \{\n([\s\S]*?)\n\}/g;
  for (const [, name, body] of text.matchAll(pattern)) {
    const members = new Map();
    for (const line of body.split("\n")) {
      const member = /^ {2}(\w+)(\?)?: (.+);$/.exec(line);
      if (member) members.set(member[1], { type: member[3], optional: Boolean(member[2]) });
      else if (/^ {2}\w+\??:/.test(line)) problems.push(`pagerd.d.ts ${name}: cannot read the member line ${JSON.stringify(line)}`);
    }
    interfaces.set(name, { members });
  }
  return interfaces;
}

const problems = [];
const interfaces = parseInterfaces(source);
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

// MARK: The interfaces against the schemas they mirror

const schemas = openapi.components.schemas;
const refName = (ref) => ref.replace("#/components/schemas/", "");

/**
 * An object schema's members: name → {required, nullable, schema}, over `allOf` and `$ref`. For
 * several schemas merged into one interface, a member is required where every one requires it.
 */
function schemaMembers(schema) {
  if (schema.$ref) return schemaMembers(schemas[refName(schema.$ref)]);
  const members = new Map();
  for (const part of schema.allOf ?? []) {
    for (const [key, member] of schemaMembers(part)) members.set(key, { ...member, required: member.required || members.get(key)?.required === true });
  }
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    members.set(key, { required: required.has(key) || members.get(key)?.required === true, nullable: nullable(property), schema: property });
  }
  return members;
}

/** Whether a property schema admits null: `type` listing "null", or an anyOf/oneOf branch that is null. */
function nullable(property) {
  if (Array.isArray(property.type) && property.type.includes("null")) return true;
  return [...(property.anyOf ?? []), ...(property.oneOf ?? [])].some((branch) => branch.type === "null" || nullable(branch));
}

/**
 * The object schemas with listed members that a property's values are, through arrays, nullable
 * unions and $refs: [label, schema], an inline schema labelled `where`. A free-form object
 * (Content) lists none.
 */
function objectSchemas(property, where) {
  if (property.$ref) {
    const target = schemas[refName(property.$ref)];
    return target.allOf || target.properties ? [[refName(property.$ref), target]] : objectSchemas(target, where);
  }
  if (property.items) return objectSchemas(property.items, where);
  const branches = [...(property.anyOf ?? []), ...(property.oneOf ?? [])];
  if (branches.length) return branches.flatMap((branch) => objectSchemas(branch, where));
  return property.properties ? [[where, property]] : [];
}

/** A type of the d.ts admits null at its top level (`Action | null`). */
const dtsNullable = (type) => type.split("|").some((part) => part.trim() === "null");

// The documents' roots: an interface and the schemas whose members it merges.
const roots = [
  ["State", ["State", "CreatedState", "Event"]],
  ["Settings", ["Settings"]],
  ["Page", ["Page"]],
  ["PageInput", ["PageInput"]],
  ["TemplateSummary", ["TemplateSummary"]],
  ["Problem", ["Problem"]],
  ["MintedSessionToken", ["MintedToken"]],
];
// The interfaces of the client alone: no document of pagerd has their shape.
const clientOnly = new Set(["Answer", "ChangeDetail", "ClientOptions", "CommandOptions", "DragOptions", "RequestOptions",
  "SelectOptions", "SessionEventMap", "ScrollMembers", "ScrollTab", "ScrollTabBar"]);
const mirrored = new Map(); // interface → the schema labels it was compared with
let comparedMembers = 0;

function compareShapes(interfaceName, labelled) {
  const label = labelled.map(([name]) => name).join(" + ");
  const seen = mirrored.get(interfaceName) ?? new Set();
  if (seen.has(label)) return;
  mirrored.set(interfaceName, seen.add(label));
  const declared = interfaces.get(interfaceName).members;
  const merged = new Map();
  labelled.forEach(([, schema], position) => {
    const members = schemaMembers(schema);
    for (const [key, member] of members) {
      const before = merged.get(key);
      // Required where every schema requires it: not where an earlier one lacks it.
      merged.set(key, { ...member, required: member.required && (before ? before.required : position === 0) });
    }
    for (const key of merged.keys()) if (!members.has(key)) merged.get(key).required = false;
  });
  for (const key of declared.keys()) {
    if (!merged.has(key)) problems.push(`${interfaceName}.${key}: declared in pagerd.d.ts, not in openapi ${label}`);
  }
  for (const [key, member] of merged) {
    const mine = declared.get(key);
    if (!mine) {
      problems.push(`openapi ${label}.${key}: not declared in ${interfaceName}`);
      continue;
    }
    comparedMembers += 1;
    if (mine.optional === member.required) {
      problems.push(`${interfaceName}.${key}: ${mine.optional ? "optional" : "required"} in pagerd.d.ts, ${member.required ? "required" : "optional"} in openapi ${label}`);
    }
    // Null is compared where it is a value a document holds: a member openapi requires, or one the
    // d.ts says may be null (an input may send null for an optional member, meaning "left out").
    if ((member.required || dtsNullable(mine.type)) && dtsNullable(mine.type) !== member.nullable) {
      problems.push(`${interfaceName}.${key}: ${mine.type} in pagerd.d.ts, ${member.nullable ? "nullable" : "never null"} in openapi ${label}`);
    }
    const inner = named(mine.type);
    const targets = objectSchemas(member.schema, `${label}.${key}`);
    if (inner.length === 1 && targets.length >= 1) {
      for (const target of targets) compareShapes(inner[0], [target]);
    } else if (inner.length !== targets.length) {
      problems.push(`${interfaceName}.${key}: ${mine.type} in pagerd.d.ts, ${targets.length} object schemas in openapi ${label}`);
    }
  }
}

for (const [name, schemaNames] of roots) compareShapes(name, schemaNames.map((schemaName) => [schemaName, schemas[schemaName]]));
for (const name of interfaces.keys()) {
  if (!mirrored.has(name) && !clientOnly.has(name)) problems.push(`${name}: pagerd.d.ts declares it, and no openapi schema reached from the roots has its place`);
}

server.close();
console.log(JSON.stringify({
  documents: states.length + 5, checkedMembers, interfaces: interfaces.size, mirrored: mirrored.size, comparedMembers, problems: problems.length,
}));
for (const problem of problems) console.error(problem);
process.exit(problems.length ? 1 : 0);
