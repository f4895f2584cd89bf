/**
 * The page's connection to its server: opened with the person's name in `hello`, opened
 * again after a loss (waiting longer after each try, up to 10 s), kept from looking idle
 * on a quiet table, and let go when the seat was taken up in another window or on
 * another device (coming back by itself would take it from there in turn). A connection
 * that stops answering is given up as lost (a network gone dead closes nothing: see
 * `keepAlive`), and so is one whose device says it is offline; when the device is back
 * online the page connects at once. The header's connection line says where it stands.
 */
import { ConnectionClosed, KupferkesselClient } from "../lib/index";
import type { ByeMsg, PlayerInfo } from "../lib/protocol";
import { byId, h, replace } from "./dom";
import type { ConnectionHost } from "./host";
import { _ } from "./i18n";
import { refusalWords } from "./refusals";
import { account, prefs } from "./store";

const VERSION = "0.1.0";

/** Nothing heard from the server for this long (ms): a `ping` asks it to answer. */
const QUIET = 5000;

/** A `ping` with nothing heard since for this long (ms): the connection is dead. So a
 * page on a network gone dead says "connection lost" within about 20 s of the last
 * thing it heard (docs/WEB.md). */
const UNANSWERED = 15000;

export class Connection {
  /** The connection in use (null: none at the moment). */
  client: KupferkesselClient | null = null;
  private retries = 0;
  /** The status bar says why the server closed the connection (`bye`). */
  private byeSaid = false;
  /** The name this connection's `hello` said (`helloName`). */
  private helloSaid = "";
  private readonly line = byId("conn");
  private retryTimer = 0;
  /** When this connection's last `ping` went (`Date.now()`; 0: none yet). */
  private pinged = 0;

  constructor(private readonly host: ConnectionHost) {
    setInterval(() => this.keepAlive(), 500);
    window.addEventListener("offline", () => this.client?.abandon());
    window.addEventListener("online", () => this.backOnline());
  }

  /** Connect (again); the host is told once the connection is open. */
  async open(): Promise<void> {
    this.setLine(this.retries ? _("reconnecting (try {n})", { n: this.retries }) : _("connecting"));
    let client: KupferkesselClient;
    const said = helloName();
    try {
      client = await KupferkesselClient.connect(wsUrl(), { client: said, clientVersion: VERSION });
    } catch (e) {
      this.retry(e);
      return;
    }
    this.client = client;
    this.helloSaid = said;
    this.retries = 0;
    this.pinged = 0;
    if (this.byeSaid) {
      // what the server said as it went is over: it is back
      this.byeSaid = false;
      this.host.say(_("The server is back."), true);
    }
    this.signedIn(null);
    client.on("*", (m) => this.host.heard(m));
    client.onClose((e) => {
      if (this.client !== client) return;
      this.client = null;
      if (e.reason === "replaced" || e.code === 4001) this.elsewhere(false);
      else {
        this.host.lost();
        this.retry(e);
      }
    });
    await this.host.opened(client);
  }

  /** The name `hello` would say now is not the one this connection said: a spectator's
   * chat lines go by it, so a new connection must say it (`reopen`). */
  helloChanged(): boolean {
    return helloName() !== this.helloSaid;
  }

  /** Let this connection go and open a new one. */
  reopen(): void {
    const c = this.client;
    this.client = null;
    c?.close();
    void this.open();
  }

  /** The server said why it closes the connection (a seat taken up elsewhere is said by
   * the page's notice instead). */
  bye(msg: ByeMsg): void {
    if (msg.reason === "replaced") return;
    this.byeSaid = true;
    this.host.say(
      msg.reason === "shutdown"
        ? _("The server is stopping; your seat is kept if it comes back.")
        : _("The server closed the connection: {why}", {
            why:
              msg.reason === "idle"
                ? _("the connection was idle too long")
                : refusalWords(msg.reason, msg.message || msg.reason),
          }),
    );
  }

  /** 1.2: signed in as `p` (null: anonymous); the connection line says so. */
  signedIn(p: PlayerInfo | null): void {
    if (this.client)
      this.setLine(
        p
          ? _("connected to {server} as {name}", {
              server: this.client.welcome.server,
              name: p.name,
            })
          : _("connected to {server}", { server: this.client.welcome.server }),
      );
  }

  private setLine(text: string): void {
    this.line.textContent = text;
  }

  private retry(e: unknown): void {
    this.retries += 1;
    const why = e instanceof ConnectionClosed && e.reason ? ` (${e.reason})` : "";
    this.setLine(
      `${_("connection lost")}${why}: ${_("reconnecting (try {n})", { n: this.retries })}`,
    );
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.retries - 1, 5));
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = 0;
      void this.open();
    }, delay);
  }

  /** The device's network is back (the browser's `online`; at its `offline` the
   * connection was given up, as nothing can pass): a try to connect again that was
   * waiting goes now. */
  private backOnline(): void {
    if (!this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = 0;
    void this.open();
  }

  /** A quiet table is not an idle client: a ping before the server would think so.
   * And a quiet server is asked whether it is there: a network gone dead (a phone out
   * of reach, a router gone) delivers no close, and the page would say "connected"
   * for as long as the system took to give the socket up (minutes). Nothing heard for
   * `UNANSWERED` ms after a ping, the connection is given up as lost (and opened again
   * as after any loss). */
  private keepAlive(): void {
    const c = this.client;
    if (!c || c.closed) return;
    const now = Date.now();
    if (this.pinged > c.lastReceived && now - this.pinged > UNANSWERED) {
      c.abandon(); // its close handler says so, and connects again
      return;
    }
    const quiet = now - c.lastReceived > QUIET && this.pinged <= c.lastReceived;
    if (quiet || now - c.lastSent > (c.welcome.limits.idle_timeout * 1000) / 3) {
      this.pinged = now;
      c.request("ping", {}).catch(() => undefined);
    }
  }

  /** Another tab of this browser took the seat up: this tab lets it go for good (its
   * connection, or its tries to connect again, would take the seat back from there). */
  letGo(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = 0;
    const c = this.client;
    this.client = null;
    c?.close();
    this.elsewhere(true);
  }

  /** The seat was resumed in another tab (`tab`: of this browser), window or device:
   * the page waits to be asked before it takes it back. */
  private elsewhere(tab: boolean): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = 0;
    this.setLine(_("not connected"));
    const again = () => {
      this.retries = 0;
      void this.open();
    };
    replace(
      this.host.main,
      h(
        "section",
        { class: "form", "aria-labelledby": "away-h" },
        h(
          "h2",
          { id: "away-h", tabindex: -1 },
          tab ? _("Your seat is played in another tab") : _("Your seat is played elsewhere"),
        ),
        h(
          "p",
          {},
          tab
            ? _("Another tab of this browser took your seat up, so this tab let go of it.")
            : _("Another tab, window or device took your seat up, so this page let go of it."),
        ),
        h(
          "p",
          { class: "buttons" },
          h("button", { class: "primary", id: "play-here", onclick: again }, _("Play here again")),
        ),
      ),
    );
    byId("away-h").focus();
  }
}

function wsUrl(): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
}

/** The name said in `hello`: a spectator's chat lines are named after it (PROTOCOL.md,
 * "chat"), so it is the person's, as the terminal client says its player's; the
 * program's name while the page knows none. */
function helloName(): string {
  const name = (account.get()?.name ?? prefs.name()).replace(/[\x00-\x1f\x7f-\x9f]/g, "").trim();
  return name ? [...name].slice(0, 32).join("").trim() : "kupferkessel-web";
}
