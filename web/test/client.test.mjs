// Tests of the client library against a real server: KK_WS_URL (ws://127.0.0.1:PORT/),
// started by tests/web/test_jslib.py. The library is the built ES module the server
// serves (server/webassets/kupferkessel-client.<hash>.js).
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const assets = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "server", "webassets");
const file = readdirSync(assets).find((f) => /^kupferkessel-client\.[0-9a-f]{10}\.js$/.test(f));
const { KupferkesselClient, ProtocolError, walk, lineOf } = await import(
  pathToFileURL(join(assets, file)).href
);
const URL = process.env.KK_WS_URL;
if (!URL) throw new Error("KK_WS_URL is not set (run through tests/web/test_jslib.py)");

const connect = () => KupferkesselClient.connect(URL, { client: "kk-js-test" });

test("the handshake speaks protocol 1.6 and hands over the catalogue", async () => {
  const c = await connect();
  try {
    assert.deepEqual(c.welcome.protocol, [1, 6]);
    assert.equal(c.welcome.catalogue.cards.length > 40, true);
    assert.equal(c.welcome.bot_levels.length > 0, true);
    assert.equal(c.seq, 1);
    const pong = await c.request("ping", {});
    assert.equal(pong.type, "pong");
    assert.equal(c.seq, 2);
  } finally {
    c.close(); // a failed check must not leave the run waiting on an open socket
  }
});

test("a refusal rejects with the server's error code", async () => {
  const c = await connect();
  await assert.rejects(
    c.request("join", { table: "nope", player: "Ann" }),
    (e) => e instanceof ProtocolError && e.code === "no_such_table",
  );
  await assert.rejects(
    c.command("chat", { text: "hi" }),
    (e) => e instanceof ProtocolError && e.code === "not_seated",
  );
  c.close();
});

test("a whole game against the computer, every take from view.takes", async () => {
  const c = await connect();
  let latest = null;
  const views = [];
  c.on("update", (u) => {
    latest = u;
    views.push(u.state_version);
  });
  const joined = new Promise((resolve) => c.on("joined", resolve));
  const created = await c.request("create_table", {
    name: "js test",
    player: "Ada",
    bots: [{ seat: 1, level: c.welcome.bot_levels[0] }],
  });
  assert.equal(created.type, "table_created");
  const seat = (await joined).seat;
  await c.command("ready", { ready: true });
  let takes = 0;
  const deadline = Date.now() + 60000;
  while (!(latest && latest.view.game_over && latest.view.result)) {
    assert.ok(Date.now() < deadline, "the game did not end in time");
    const v = latest?.view;
    if (v && v.to_move === seat && v.takes?.length) {
      const option = v.takes[takes % v.takes.length];
      const answer = await c.take(latest.state_version, option);
      assert.equal(answer.type, "update");
      assert.equal(answer.view.ply, v.ply + 1);
      takes += 1;
    } else {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const result = latest.view.result;
  assert.equal(result.ending, "played_out");
  assert.equal(result.places.length, 2);
  assert.ok(takes > 5);
  // state versions only grow
  for (let i = 1; i < views.length; i++) assert.ok(views[i] >= views[i - 1]);
  c.close();
});

test("a seat token resumes the seat on a new connection", async () => {
  const a = await connect();
  const joined = new Promise((resolve) => a.on("joined", resolve));
  await a.request("create_table", { name: "resume", player: "Bo" });
  const { token, table, seat } = await joined;
  a.close();
  await new Promise((r) => a.onClose(r));
  const b = await connect();
  const resumed = await b.request("resume", { token });
  assert.equal(resumed.type, "resumed");
  assert.equal(resumed.table, table);
  assert.equal(resumed.seat, seat);
  b.close();
});

test("geometry: movement jumps pawns and spaces face their lines", () => {
  assert.deepEqual(walk(2, 3, [4]), [6, [4]]); // RULES.md 4.1's example
  assert.equal(lineOf(3), "col3");
  assert.equal(lineOf(12), "col3");
  assert.equal(lineOf(7), "row2");
  assert.equal(lineOf(18), "row2");
  assert.equal(lineOf(10), null);
});
