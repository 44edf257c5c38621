// What predictScroll costs per call in this JavaScript engine: for each state in
// web/test/fixtures (documents a server sent), a warm-up, then timed rounds over progresses
// −1…1; prints the median microseconds per call of five rounds.
//
//   node web/test/bench-predict.mjs
import { readdirSync, readFileSync } from "node:fs";
import { predictScroll } from "../pagerd.js";

const folder = new URL("./fixtures/", import.meta.url);
const inputs = Array.from({ length: 201 }, (_, i) => ({ progress: (i - 100) / 100 }));
const results = [];
for (const name of readdirSync(folder).filter((file) => file.endsWith(".json")).sort()) {
  const { state, settings } = JSON.parse(readFileSync(new URL(name, folder), "utf8"));
  let sink = 0;
  const run = (calls) => {
    for (let i = 0; i < calls; i += 1) sink += predictScroll(state, settings, inputs[i % inputs.length]).pageOffset;
  };
  run(20000);
  const rounds = [];
  for (let round = 0; round < 5; round += 1) {
    const calls = 50000;
    const start = process.hrtime.bigint();
    run(calls);
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
  rounds.sort((a, b) => a - b);
  results.push({ state: name.replace(/\.json$/, ""), tabs: state.tabs.length, microsecondsPerCall: Number(rounds[2].toFixed(3)), sink: Number.isFinite(sink) });
}
console.log(`node ${process.version}`);
console.table(results.map(({ sink, ...row }) => row));
