/**
 * The page's address: an invite or watch link (`#/join/TABLE/CODE`, `#/watch/...`)
 * opened on a first visit or in a tab that shows the page already, the rules
 * (`#/help`), and the header's links back to the lobby.
 */
import { byId } from "./dom";
import type { LinksHost } from "./host";
import { lookUp } from "./lobby";

/** An invite or watch link in the address: kept as `prefill`, and gone from the
 * address (true if there was one). */
export function readLink(app: LinksHost): boolean {
  const m = /^#\/(join|watch)\/([A-Za-z0-9_-]{1,32})(?:\/([A-Za-z0-9_-]{1,64}))?$/.exec(
    location.hash,
  );
  if (m) {
    app.prefill = { table: m[2], invite: m[3] ?? "", watch: m[1] === "watch" };
    history.replaceState(null, "", location.pathname);
  }
  return !!m;
}

/** A link opened while the page runs: its join form, as on a first visit (the page
 * shows it once connected if it is still connecting); at a table, the page says to
 * leave it. */
export async function followLink(app: LinksHost): Promise<void> {
  const p = app.prefill;
  const c = app.client;
  if (!p) return;
  if (app.here) {
    app.prefill = null;
    app.say("You are at a table: leave it first, then open the link again.");
    return;
  }
  if (!c) return;
  p.known = await lookUp(app, p.table);
  if (app.prefill === p && app.client === c && !app.here) app.show("join");
}

/** The header's *Lobby* (and its title): the lobby from a form or a players' screen; at
 * a table the table stays, left by its own buttons. */
export function toLobby(app: LinksHost): void {
  if (app.here || app.screen === "lobby") return;
  app.prefill = null;
  app.show("lobby");
}

/** The rules (`#/help`) in place of the main part, or the main part again. */
export function showHelp(main: HTMLElement): void {
  const help = location.hash === "#/help";
  const section = byId("help");
  section.hidden = !help;
  main.hidden = help;
  if (help)
    void import("./guide").then((m) => {
      if (!section.firstChild) m.drawGuide(section); // loaded and drawn when first asked for
      byId("help-h").focus();
    });
}
