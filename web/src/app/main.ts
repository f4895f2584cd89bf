/**
 * The web client: lobby, new table, join by code or link, waiting, the table, the end,
 * rematch, watching; resumes a seat after a reload or a dropped connection, and shows
 * the moves missed meanwhile. It speaks the protocol of `lib/protocol.ts` (1.4) through
 * the client library and draws plain DOM.
 */
import { KupferkesselClient, ProtocolError } from "../lib/index";
import type {
  PlayerInfo,
  PresenceMsg,
  ServerMessage,
  TableSummary,
  TakeOption,
} from "../lib/protocol";
import { ChatBox } from "./chat";
import { clockWords, tickClocks } from "./clock";
import { byId } from "./dom";
import {
  freshTable,
  type ConnectionHost,
  type TabsHost,
  type LobbyHost,
  type PlayersScreen,
  type Screen,
  type TableAction,
  type TableHost,
  type TableState,
  type UpdatesHost,
} from "./host";
import { lookUp, playerName, renderJoin, renderLobby, renderTables, renderWaiting } from "./lobby";
import type { LogEntry } from "./log";
import { Pacer, closeSettingsOutside, paceSetting } from "./pace";
import { PLAYERS_SCREENS, playerSeat, signIn } from "./signin";
import { followLink, readLink, showHelp, toLobby } from "./links";
import { Presses } from "./presses";
import { here as hereStore, prefs, savedChat, savedLog, tokens, type Here } from "./store";
import { inSight, renderTable, showPending } from "./table";
import { SeatTabs } from "./tabs";
import { Updates } from "./updates";
import { Connection } from "./connection";
import { frameWords, screenTitle } from "./frame";
import { _, pgettext, useLanguage } from "./i18n";
import { refusalOf, refusalWords, type Particulars } from "./refusals";
import { Cards, botName, colourName, possessive, seatLabel } from "./words";

/** The application: the connection, the screens, and what they share. Each screen is
 * handed it as its small interface (`host.ts`) and knows no more of it. */
class App implements LobbyHost, TableHost, UpdatesHost, ConnectionHost, TabsHost {
  cards: Cards | null = null;
  screen: Screen = "lobby";
  here: Here | null = null;
  presence: PresenceMsg | null = null;
  summary: TableSummary | null = null;
  invite: string | null = null;
  tables: TableSummary[] = [];
  tablesTotal = 0;
  /** The lobby's page of tables: null the first, else the cursor that asks for it. */
  cursor: string | null = null;
  nextCursor: string | null = null;
  t: TableState = freshTable();
  /** 1.2: the player this connection signed in as (null: anonymous). */
  player: PlayerInfo | null = null;
  /** `table:seat` of the table state `t` holds (null: none yet). */
  private tHolds: string | null = null;
  private readonly pacer = new Pacer();
  private readonly presses = new Presses();
  private readonly updates = new Updates(this, this.pacer, this.presses);
  private readonly chat = new ChatBox(this);
  private readonly tabs = new SeatTabs(this);
  readonly chatBox = this.chat.box;
  wantReady = true;
  private listTimer = 0;
  private sayTimer = 0;
  /** The table an invite or watch link names, and its listing if the server lists it. */
  prefill: { table: string; invite: string; watch: boolean; known?: TableSummary | null } | null =
    null;
  readonly main = byId("main");
  private readonly link: Connection;
  private readonly status = byId("status");
  private readonly announcer = byId("announce");
  constructor() {
    window.addEventListener("hashchange", () => {
      // an invite or watch link opened in a tab that shows the page already: only the
      // part after # changed, so the page is not loaded again and must follow it itself
      if (readLink(this)) void followLink(this);
      showHelp(this.main);
    });
    // the header's links to the lobby (its title too) lead back to it from a form or a
    // players' screen; at a table they show the table, left by its own buttons. The
    // address may say "#/" already, so the click is heard, not only a change of it
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href="#/"]'))
      a.addEventListener("click", () => toLobby(this));
    paceSetting(this.pacer);
    closeSettingsOutside();
    setInterval(() => this.tick(), 500);
    this.link = new Connection(this);
  }

  // ------------------------------------------------------------------ connection
  async start(): Promise<void> {
    readLink(this);
    showHelp(this.main);
    await this.link.open();
  }

  /** The connection in use (null: none at the moment). */
  get client(): KupferkesselClient | null {
    return this.link.client;
  }

  /** A connection was opened (again): the page goes back to where it was. */
  async opened(client: KupferkesselClient): Promise<void> {
    this.cards = new Cards(client.welcome.catalogue);
    this.chat.maxLength = client.welcome.limits.max_chat;
    await signIn(this); // 1.2: the player kept for this server, on every connection
    const h = this.here ?? hereStore.get();
    if (h) await this.rejoin(h);
    else if (this.prefill) {
      const p = this.prefill;
      p.known = await lookUp(this, p.table); // what the link leads to, if it is listed
      if (this.prefill === p && this.client === client) this.show("join");
    } else this.show("lobby");
  }

  /** Back at the table this tab was at: resume the seat, or watch again. */
  async rejoin(h: Here): Promise<void> {
    const c = this.client!;
    try {
      if (h.seat !== null) {
        const token = tokens.get(h.table, h.seat);
        if (token) await c.request("resume", { token });
        else if (this.player && playerSeat(h.table) === h.seat)
          await c.request("rejoin", { table: h.table });
        else throw new Error("no token");
      } else {
        await c.request("watch", { table: h.table, invite: h.invite ?? undefined });
      }
    } catch (e) {
      if (
        h.seat !== null &&
        e instanceof ProtocolError &&
        (e.code === "bad_token" || e.code === "no_such_table")
      ) {
        tokens.forget(h.table, h.seat);
      }
      if (h.seat === null) forgetWatching(h.table); // no more watching there
      this.setHere(null);
      this.show("lobby");
      this.say(
        e instanceof ProtocolError ? `${_("Could not go back to the table.")} ${refusalOf(e)}` : "",
      );
    }
  }

  /** 1.2: signed in as `p` (null: anonymous); the header says so. */
  setPlayer(p: PlayerInfo | null): void {
    this.player = p;
    this.link.signedIn(p);
  }

  /** A line in the status bar (server refusals, connection news). */
  say(text: string, info = false): void {
    this.status.textContent = text;
    this.status.classList.toggle("info", info);
    clearTimeout(this.sayTimer);
    if (info) this.sayTimer = window.setTimeout(() => this.say(""), 8000);
  }

  announce(text: string): void {
    this.announcer.textContent = text;
  }

  private setHere(h: Here | null): void {
    this.here = h;
    hereStore.put(h);
  }

  // ------------------------------------------------------------------ messages
  heard(msg: ServerMessage): void {
    switch (msg.type) {
      case "table_created":
        this.summary = msg.table;
        this.invite = msg.invite ?? null;
        break;
      case "joined":
        tokens.put(msg.table, msg.seat, msg.token);
        this.enterTable({ table: msg.table, seat: msg.seat, invite: this.invite });
        if (this.screen === "waiting") renderWaiting(this); // its presence came first: now with the seat's Ready
        if (this.wantReady)
          this.client?.command("ready", { ready: true }).catch((e) => this.refused(e));
        break;
      case "resumed":
        this.enterTable({
          table: msg.table,
          seat: msg.seat,
          invite: this.hereAt(msg.table)?.invite ?? null,
        });
        this.updates.resumed(); // the fresh view that follows says if it moved on
        if (this.here) this.tabs.took(this.here); // a tab of this browser that had it says so
        break;
      case "watching":
        this.enterTable({
          table: msg.table,
          seat: null,
          invite: this.hereAt(msg.table)?.invite ?? this.prefill?.invite ?? null,
        });
        this.updates.resumed(); // as for a seat: the log says if it missed moves
        break;
      case "rematched": {
        const old = this.here;
        if (old && old.seat !== null && msg.seat != null) {
          const token = tokens.get(old.table, old.seat);
          tokens.forget(old.table, old.seat);
          if (token) tokens.put(msg.table, msg.seat, token);
        }
        if (old && old.seat === null) forgetWatching(old.table); // the spectator follows
        this.enterTable({ table: msg.table, seat: msg.seat ?? null, invite: old?.invite ?? null });
        this.say(_("The rematch begins: colours move one seat on."), true);
        break;
      }
      case "left": {
        const h = this.here;
        if (h && h.seat !== null && this.presence?.state !== "playing")
          tokens.forget(h.table, h.seat);
        if (h && h.seat === null) forgetWatching(h.table); // stopped watching
        this.setHere(null);
        this.presence = null;
        this.show("lobby");
        break;
      }
      case "presence":
        this.onPresence(msg);
        break;
      case "update":
        this.updates.push(msg);
        break;
      case "chat":
        this.chat.heard(msg, this.here);
        break;
      case "tables":
        this.tables = msg.tables;
        this.tablesTotal = msg.total ?? msg.tables.length;
        this.nextCursor = msg.next ?? null;
        if (this.screen === "lobby") renderTables(this);
        break;
      case "error":
        if (msg.re == null)
          this.say(refusalWords(msg.code, msg.message, null, msg.detail, msg as Particulars));
        break;
      case "bye":
        this.link.bye(msg);
        break;
      default:
        break;
    }
  }

  /** Where this tab was at `table`: this page's, or after a reload the one kept. */
  private hereAt(table: string): Here | null {
    const h = this.here ?? hereStore.get();
    return h?.table === table ? h : null;
  }

  private enterTable(h: Here): void {
    // the table and seat `t` holds (not `here`, which watch() sets before its answer)
    const same = this.tHolds === `${h.table}:${h.seat}`;
    this.tHolds = `${h.table}:${h.seat}`;
    const kept = this.hereAt(h.table)?.summary ?? null;
    if (this.summary?.id !== h.table)
      this.summary = this.tables.find((t) => t.id === h.table) ?? kept;
    h.summary = this.summary;
    this.setHere(h);
    if (!this.summary) void this.lookUpSummary(h.table);
    if (!same) {
      this.t = freshTable();
      this.chat.load(h.table, h.seat); // the lines before a reload
      this.updates.clear();
      this.updates.load(h.table, h.seat);
    }
    this.t.seat = h.seat;
    this.invite = h.invite ?? this.invite;
  }

  /** The listing of a table the page came to without it (an id typed by hand): the
   * waiting screen's name, terms and colours. A private table is not listed. */
  private async lookUpSummary(table: string): Promise<void> {
    const s = await lookUp(this, table);
    if (!s || this.summary || this.here?.table !== table) return;
    this.summary = s;
    this.setHere({ ...this.here, summary: s });
    if (this.screen === "waiting") renderWaiting(this);
  }

  private onPresence(msg: PresenceMsg): void {
    const before = this.presence?.table === msg.table ? this.presence : null;
    this.presence = msg;
    // a table's presence comes before `joined`: its name and terms from the listing already
    if (this.summary?.id !== msg.table)
      this.summary = this.tables.find((t) => t.id === msg.table) ?? null;
    // from "playing" too: a two-player resignation finishes the table in this message
    if (before && (msg.state === "playing" || before.state === "playing"))
      this.updates.presence(before, msg);
    if (msg.state === "lobby") this.show("waiting");
    else if (this.screen !== "table") {
      this.show("table");
      if (this.isMyTurn()) this.focusStart();
    } else this.redraw();
  }

  /** This seat may take a card now: its turn in the view shown, connected, and no moves
   * missed meanwhile still to show. */
  isMyTurn(): boolean {
    const v = this.t.view;
    return (
      !!v &&
      !v.game_over &&
      v.to_move != null &&
      v.to_move === this.t.seat &&
      !!v.takes?.length &&
      this.client !== null &&
      !this.updates.catchingUp
    );
  }

  takenByTab(): void {
    this.link.letGo();
  }

  tookFromTab(): void {
    const text = _(
      "This tab plays your seat now: another tab of this browser had it, and let it go",
    );
    this.t.log.note("presence", text);
    this.say(`${text}.`, true);
    this.announce(`${text}.`);
    this.redraw();
  }

  lost(): void {
    if (this.screen === "table") this.redraw(); // the cards to take are not, for now
  }

  /** `White (Ann)`, with `you` for this browser's seat. */
  who(seat: number): string {
    const v = this.t.view;
    const colours = v?.colours ?? ["white", "black", "lilac"];
    const names = this.names();
    if (seat !== this.t.seat) return seatLabel(colours, seat, names);
    const colour = colourName(colours[seat] ?? "");
    const name = names[seat];
    return name ? _("{colour} ({name}, you)", { colour, name }) : _("{colour} (you)", { colour });
  }

  /** `Bo's` (the colour's when the seat has no name), `your` for this browser's seat. */
  whose(seat: number): string {
    if (seat === this.t.seat) return pgettext("possessive", "your");
    const colour = this.t.view?.colours[seat];
    const name = colour ? colourName(colour) : _("Seat {n}", { n: seat + 1 });
    return possessive(this.names()[seat] ?? name);
  }

  names(): (string | null)[] {
    return (this.presence?.seats ?? []).map((s) => (s.bot ? botName(s.bot) : (s.name ?? null)));
  }

  visibleLog(): LogEntry[] {
    return this.updates.visible();
  }

  sinceLastDecision(): LogEntry[] {
    return this.updates.since();
  }

  firstView(): void {
    this.chat.render(); // lines kept from before a reload: now with their colours
  }

  // ------------------------------------------------------------------ actions
  /** A refusal in a plain sentence (`seat`: the seat asked for, in the page's words). */
  refused(e: unknown, seat: string | null = null): void {
    if (e instanceof ProtocolError) this.say(refusalOf(e, seat));
    else if (e instanceof Error) this.say(e.message);
  }

  /** `White (seat 1)`: a seat of `table` as the join form names it. */
  private seatWords(table: string, seat: number): string {
    const t =
      this.tables.find((x) => x.id === table) ?? (this.summary?.id === table ? this.summary : null);
    const colours = ["white", "black", t?.options.third_colour];
    const colour = colours[seat];
    return _("{colour} (seat {n})", {
      colour: colour ? colourName(colour) : _("third colour"),
      n: seat + 1,
    });
  }

  async take(option: TakeOption): Promise<void> {
    const c = this.client;
    const t = this.t;
    if (!c || t.pending || !this.isMyTurn()) return;
    t.pending = true;
    if (this.screen === "table") showPending(this.main);
    // the card or answer pressed is disabled, then gone: the focus waits on the banner
    // (not on <body>), and goes back to a card when the turn comes again
    this.focusTurn();
    try {
      await c.take(t.version, option);
      t.selected = null;
      this.say("");
    } catch (e) {
      t.pending = false;
      if (e instanceof ProtocolError && e.code === "stale_state")
        this.say(_("The game moved on: choose again."));
      else this.refused(e);
      this.renderTableNow();
      if (document.activeElement?.id === "turn" && this.isMyTurn()) this.focusStart();
    }
  }

  act(type: TableAction): void {
    const c = this.client;
    if (!c) return;
    c.request(type, {}).catch((e) => this.refused(e));
  }

  rematch(on: boolean): void {
    this.client?.command("rematch", { rematch: on }).catch((e) => this.refused(e));
  }

  ready(on: boolean): void {
    this.wantReady = on;
    this.client?.command("ready", { ready: on }).catch((e) => this.refused(e));
  }

  private tick(): void {
    if (this.screen === "table" && this.t.view?.clock?.running != null) {
      tickClocks(this.main, (seat) => this.clockText(seat));
    }
  }

  clockText(seat: number): string {
    return clockWords(this.t.view, this.t.viewAt, seat);
  }

  /** Keyboard focus to the card to take next to this seat's pawn (as the terminal's
   * cursor), unless the person is typing somewhere; the focus does not scroll the page,
   * which shows the grid and the last move instead (`inSight`). */
  focusStart(): void {
    const a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.tagName === "SELECT")) return;
    const first = this.main.querySelector<HTMLElement>(".cell.take");
    first?.focus({ preventScroll: true });
    if (this.t.move) inSight(this.main);
  }

  /** Keyboard focus to the turn banner (the screen does not scroll), unless the person
   * is typing somewhere. */
  focusTurn(): void {
    const a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.tagName === "SELECT")) return;
    document.getElementById("turn")?.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ screens
  show(screen: Screen): void {
    const changed = this.screen !== screen;
    this.screen = screen;
    clearInterval(this.listTimer);
    if (screen === "lobby") {
      renderLobby(this);
      this.listTables();
      this.listTimer = window.setInterval(() => this.listTables(), 4000);
    } else if (screen === "join") renderJoin(this);
    else if (screen === "waiting") renderWaiting(this);
    else if (screen === "create" || PLAYERS_SCREENS.includes(screen)) {
      // the new-table form and the players' screens are loaded when first opened (then
      // drawn at once, as every other screen is)
      const draw = () =>
        screen === "create"
          ? lazy.create!.renderCreate(this)
          : lazy.players!.renderPlayers(this, screen as PlayersScreen);
      if (screen === "create" ? lazy.create : lazy.players) draw();
      else {
        const loaded =
          screen === "create"
            ? import("./create").then((m) => void (lazy.create = m))
            : import("./players").then((m) => void (lazy.players = m));
        void loaded.then(() => {
          if (this.screen !== screen) return;
          draw();
          if (changed) this.arrived(screen);
        });
        return;
      }
    } else this.renderTableNow();
    if (changed) this.arrived(screen);
  }

  /** A screen newly shown: its title, the page at its top, the focus on its heading. */
  private arrived(screen: Screen): void {
    document.title = `${screenTitle(screen)} · Kupferkessel Co.`;
    if (!this.status.classList.contains("info")) this.say("");
    window.scrollTo(0, 0);
    const heading = this.main.querySelector<HTMLElement>("h1, h2");
    if (heading && screen !== "table") {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }

  listTables(): void {
    const c = this.client;
    if (!c || c.closed) return;
    c.request("list_tables", {
      open_first: true,
      limit: 50,
      cursor: this.cursor ?? undefined,
    }).catch(() => {
      this.cursor = null; // a cursor the server no longer knows: back to the first page
    });
  }

  join(table: string, invite: string | null, seat: number | null, seeded = false): void {
    const name = playerName(this);
    const c = this.client;
    if (!name || !c) return;
    this.invite = invite;
    this.wantReady = true;
    this.say(""); // a refusal of the try before goes
    c.request("join", {
      table,
      player: name,
      invite: invite || undefined,
      seat: seat ?? undefined,
      seeded: seeded || undefined,
    }).catch((e) => this.refused(e, seat === null ? null : this.seatWords(table, seat)));
  }

  watch(table: string, invite: string | null): void {
    const c = this.client;
    if (!c) return;
    this.say("");
    this.setHere({ table, seat: null, invite });
    const typed = (document.getElementById("player-name") as HTMLInputElement | null)?.value.trim();
    if (typed && !this.player) prefs.setName(typed);
    if (this.link.helloChanged()) {
      // a spectator's chat lines go by the name of the connection's hello: said under
      // another name (or none), it is said again, and the new connection watches
      this.link.reopen();
      return;
    }
    c.request("watch", { table, invite: invite || undefined }).catch((e) => {
      this.setHere(null);
      this.refused(e);
    });
  }

  renderTableNow(): void {
    if (this.screen !== "table") return;
    // a question being answered ("Resign?") stays where it is on the screen: lines the
    // log gains above it would otherwise push it down, off a phone's screen
    const a = document.activeElement;
    const keep = this.t.confirm && a instanceof HTMLElement && this.main.contains(a) ? a : null;
    const top = keep?.getBoundingClientRect().top ?? 0;
    renderTable(this);
    if (keep?.isConnected) {
      const dy = keep.getBoundingClientRect().top - top;
      if (Math.abs(dy) >= 1) window.scrollBy(0, dy);
    }
  }

  /** The table drawn anew for news (presence), not for the person's own doing: after
   * the press in progress, if there is one. */
  private redraw(): void {
    this.presses.later(() => this.renderTableNow());
  }
}

/** The screens loaded when first opened, once they are. */
const lazy: {
  create?: typeof import("./create");
  players?: typeof import("./players");
} = {};

/** What a spectator's page kept of `table`: its chat lines and its log. */
function forgetWatching(table: string): void {
  savedChat.forget(table, null);
  savedLog.forget(table, null);
}

// the language first (a module to load, unless English), then the page in it
void useLanguage().then(() => {
  frameWords();
  void new App().start();
});
