/**
 * The web client: lobby, new table, join by code or link, waiting, the table, the end,
 * rematch, watching; resumes a seat after a reload or a dropped connection. It speaks
 * protocol 1.1 through the client library and draws plain DOM.
 */
import { ConnectionClosed, KupferkesselClient, ProtocolError, lineOf } from "../lib/index";
import type {
  GameView,
  PlayerInfo,
  PresenceMsg,
  ServerMessage,
  TableSummary,
  TakeOption,
  UpdateMsg,
} from "../lib/protocol";
import { byId, h, replace } from "./dom";
import type { LobbyHost, PlayersScreen, Screen, TableAction, TableHost, TableState } from "./host";
import { renderCreate } from "./create";
import { lookUp, playerName, renderJoin, renderLobby, renderTables, renderWaiting } from "./lobby";
import {
  CHAT_KEEP,
  account,
  here as hereStore,
  prefs,
  savedChat,
  savedLog,
  tokens,
  type Here,
  type KeptChat,
} from "./store";
import { GameLog, type LogEntry } from "./log";
import { Pacer, paceSetting } from "./pace";
import { PLAYERS_SCREENS, playerSeat, renderPlayers, signIn } from "./players";
import { renderTable } from "./table";
import {
  Cards,
  cap,
  endingWords,
  eventWords,
  lineWords,
  refusalWords,
  seatLabel,
  winnersWords,
} from "./words";

const VERSION = "0.1.0";

/** The application: the connection, the screens, and what they share. Each screen is
 * handed it as its small interface (`host.ts`) and knows no more of it. */
class App implements LobbyHost, TableHost {
  client: KupferkesselClient | null = null;
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
  /** The table's chat as this page heard it, kept across a reload (`savedChat`). */
  chat: KeptChat[] = [];
  /** 1.2: the player this connection signed in as (null: anonymous). */
  player: PlayerInfo | null = null;
  private queue: UpdateMsg[] = [];
  /** `table:seat` of the table state `t` holds (null: none yet). */
  private tHolds: string | null = null;
  private pumping = false;
  /** A press (finger, pen, mouse button) on the page that has not yet ended in a click
   * (`watchPresses`); news that would draw the table anew waits for it to end. */
  private pressing = false;
  private pressTimer = 0;
  /** What waits for the press to end: the queue of updates, a redraw. */
  private afterPress: (() => void)[] = [];
  private redrawAfterPress = false;
  private readonly pacer = new Pacer();
  private retries = 0;
  /** The status bar says why the server closed the connection (`bye`). */
  private byeSaid = false;
  /** The name this connection's `hello` said (`helloName`). */
  private helloSaid = "";
  wantReady = true;
  private listTimer = 0;
  private sayTimer = 0;
  /** The state version the log had seen when the seat was resumed (null: not resuming). */
  private resumedFrom: number | null = null;
  /** The table an invite or watch link names, and its listing if the server lists it. */
  prefill: { table: string; invite: string; watch: boolean; known?: TableSummary | null } | null =
    null;
  readonly main = byId("main");
  private readonly conn = byId("conn");
  private readonly status = byId("status");
  private readonly announcer = byId("announce");
  readonly chatBox: HTMLElement;
  private readonly chatList: HTMLElement;
  private readonly chatInput: HTMLInputElement;

  constructor() {
    this.chatList = h("ol", { class: "chat-lines", "aria-label": "Chat lines", tabindex: 0 });
    this.chatInput = h("input", {
      id: "chat-text",
      type: "text",
      maxlength: 280,
      autocomplete: "off",
      "aria-label": "Chat message",
      placeholder: "Say something",
    });
    const form = h(
      "form",
      { class: "chat-form", onsubmit: (e: Event) => this.sendChat(e) },
      this.chatInput,
      h("button", { type: "submit" }, "Send"),
    );
    // one and the same box in every drawing of the table, keyed: a redraw moves it into
    // the new tree before comparing, and unkeyed the boxes after it (the seat's buttons)
    // were matched one place off, so rebuilt every time, under a finger too
    this.chatBox = h(
      "section",
      { class: "chat", "data-key": "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h" }, "Chat"),
      this.chatList,
      form,
    );
    window.addEventListener("hashchange", () => {
      // an invite or watch link opened in a tab that shows the page already: only the
      // part after # changed, so the page is not loaded again and must follow it itself
      if (this.readHash()) void this.followLink();
      this.route();
    });
    // the header's links to the lobby (its title too) lead back to it from a form or a
    // players' screen; at a table they show the table, left by its own buttons. The
    // address may say "#/" already, so the click is heard, not only a change of it
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href="#/"]'))
      a.addEventListener("click", () => this.toLobby());
    paceSetting(this.pacer);
    closeSettingsOutside();
    this.watchPresses();
    setInterval(() => this.tick(), 500);
  }

  // ------------------------------------------------------------------ connection
  async start(): Promise<void> {
    this.readHash();
    this.route();
    await this.connect();
  }

  private wsUrl(): string {
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
  }

  private async connect(): Promise<void> {
    this.setConn(this.retries ? `reconnecting (try ${this.retries})` : "connecting");
    let client: KupferkesselClient;
    const said = helloName();
    try {
      client = await KupferkesselClient.connect(this.wsUrl(), {
        client: said,
        clientVersion: VERSION,
      });
    } catch (e) {
      this.scheduleReconnect(e);
      return;
    }
    this.client = client;
    this.helloSaid = said;
    this.retries = 0;
    if (this.byeSaid) {
      // what the server said as it went is over: it is back
      this.byeSaid = false;
      this.say("The server is back.", true);
    }
    this.cards = new Cards(client.welcome.catalogue);
    this.chatInput.maxLength = client.welcome.limits.max_chat;
    this.setConn(`connected to ${client.welcome.server}`);
    client.on("*", (m) => this.onMessage(m));
    client.onClose((e) => {
      if (this.client !== client) return;
      this.client = null;
      if (e.reason === "replaced" || e.code === 4001) this.elsewhere();
      else this.scheduleReconnect(e);
    });
    await signIn(this); // 1.2: the player kept for this server, on every connection
    const h = this.here ?? hereStore.get();
    if (h) await this.rejoin(h);
    else if (this.prefill) {
      const p = this.prefill;
      p.known = await lookUp(this, p.table); // what the link leads to, if it is listed
      if (this.prefill === p && this.client === client) this.show("join");
    } else this.show("lobby");
  }

  private scheduleReconnect(e: unknown): void {
    this.retries += 1;
    const why = e instanceof ConnectionClosed && e.reason ? ` (${e.reason})` : "";
    this.setConn(`connection lost${why}: reconnecting (try ${this.retries})`);
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.retries - 1, 5));
    setTimeout(() => void this.connect(), delay);
  }

  /** The seat was resumed in another window or on another device: coming back by
   * itself would take it from there in turn, so the page waits to be asked. */
  private elsewhere(): void {
    this.setConn("not connected");
    const again = () => {
      this.retries = 0;
      void this.connect();
    };
    replace(
      this.main,
      h(
        "section",
        { class: "form", "aria-labelledby": "away-h" },
        h("h2", { id: "away-h", tabindex: -1 }, "Your seat is played elsewhere"),
        h(
          "p",
          {},
          "Another window or device took this seat up with its token, so this page let go of it.",
        ),
        h(
          "p",
          { class: "buttons" },
          h("button", { class: "primary", id: "play-here", onclick: again }, "Play here again"),
        ),
      ),
    );
    byId("away-h").focus();
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
        e instanceof ProtocolError
          ? `Could not go back to the table. ${refusalWords(e.code, e.message)}`
          : "",
      );
    }
  }

  private setConn(text: string): void {
    this.conn.textContent = text;
  }

  /** 1.2: signed in as `p` (null: anonymous); the header says so. */
  setPlayer(p: PlayerInfo | null): void {
    this.player = p;
    if (this.client)
      this.setConn(`connected to ${this.client.welcome.server}${p ? ` as ${p.name}` : ""}`);
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
  private onMessage(msg: ServerMessage): void {
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
        this.resumedFrom = this.t.log.version; // the fresh view that follows says if it moved on
        break;
      case "watching":
        this.enterTable({
          table: msg.table,
          seat: null,
          invite: this.hereAt(msg.table)?.invite ?? this.prefill?.invite ?? null,
        });
        this.resumedFrom = this.t.log.version; // as for a seat: the log says if it missed moves
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
        this.say("The rematch begins: colours move one seat on.", true);
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
        this.queue.push(msg);
        void this.pump();
        break;
      case "chat":
        this.chat.push(msg);
        if (this.chat.length > CHAT_KEEP) this.chat.shift();
        if (this.here) savedChat.put(this.here.table, this.here.seat, this.chat);
        this.renderChat();
        break;
      case "tables":
        this.tables = msg.tables;
        this.tablesTotal = msg.total ?? msg.tables.length;
        this.nextCursor = msg.next ?? null;
        if (this.screen === "lobby") renderTables(this);
        break;
      case "error":
        if (msg.re == null) this.say(`Server: ${msg.message}`);
        break;
      case "bye":
        this.byeSaid = true;
        this.say(
          msg.reason === "shutdown"
            ? "The server is stopping; your seat is kept if it comes back."
            : `The server closed the connection: ${msg.message || msg.reason}`,
        );
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
      this.chat = savedChat.get(h.table, h.seat); // the lines before a reload
      this.queue = [];
      this.renderChat();
      this.restoreLog(h.table, h.seat);
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
      this.logPresence(before, msg);
    if (msg.state === "lobby") this.show("waiting");
    else if (this.screen !== "table") {
      this.show("table");
      if (this.isMyTurn()) this.focusStart();
    } else this.redraw();
  }

  /** Resignations, seats a computer took over and people who came back go into the
   * log (and are read out), as moves do. */
  private logPresence(before: PresenceMsg, now: PresenceMsg): void {
    const said: string[] = [];
    for (const s of now.seats) {
      const b = before.seats[s.seat];
      if (!b || s.bot) continue;
      let text: string | null = null;
      if (s.resigned && !b.resigned) {
        if (this.noteResigned(s.seat, !!s.computer && now.state === "playing"))
          said.push(this.t.log.entries[this.t.log.entries.length - 1].text);
        continue;
      }
      if (now.state !== "playing") continue;
      if (s.absent && !b.absent) text = `${this.who(s.seat)} is away: a computer plays the seat`;
      else if (!s.absent && b.absent && !s.resigned) text = `${this.who(s.seat)} is back`;
      if (text) {
        this.t.log.note("presence", text, s.seat);
        said.push(text);
      }
    }
    if (said.length) {
      this.announce(said.join(". ") + ".");
      this.saveLog();
    }
  }

  /** Log `seat`'s resignation once (the presence and the game's end may both tell of
   * it, in either order); false if it is in the log already. */
  private noteResigned(seat: number, computerPlays: boolean): boolean {
    if (this.t.log.entries.some((e) => e.kind === "resigned" && e.seat === seat)) return false;
    this.t.log.note(
      "resigned",
      `${this.who(seat)} resigned${computerPlays ? ": a computer plays the seat to the end" : ""}`,
      seat,
    );
    return true;
  }

  /** Updates are shown in order; another seat's move waits until the one before has
   * been on screen for the pace the person chose (`pace.ts`), so every move can be
   * seen. After a wait the queue is looked at again: the pace may have changed, or the
   * page gone to another table. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        if (this.pressing) {
          // a finger or button is down: a move drawn now could move the button under it
          // (lines added above, the focus and the page going to the grid), and the
          // press would end over something else, no click at all
          await new Promise<void>((go) => this.afterPress.push(go));
          continue;
        }
        const u = this.queue[0];
        const others =
          u.re == null &&
          u.events?.some((e) => "seat" in e && e.seat !== this.t.seat && e.kind !== "turn_passed");
        const wait = others ? this.pacer.due(this.queue.length) : 0;
        if (wait > 0) {
          await this.pacer.sleep(wait);
          continue;
        }
        this.queue.shift();
        this.apply(u);
        this.pacer.shown();
      }
    } finally {
      this.pumping = false;
    }
  }

  private apply(u: UpdateMsg): void {
    const t = this.t;
    const before = t.view;
    t.view = u.view;
    t.version = u.state_version;
    t.viewAt = performance.now();
    t.pending = false;
    if (t.selected && !u.view.takes?.some((o) => o.card === t.selected)) t.selected = null;
    const said: string[] = [];
    if (this.resumedFrom !== null) {
      // the moves made while away come as a fresh view, not as events
      // (once: never twice in a row; a log of unknown version says it if it has lines)
      const last = t.log.entries[t.log.entries.length - 1];
      const moved =
        this.resumedFrom === -1 ? !!last || u.view.ply > 0 : this.resumedFrom !== u.state_version;
      // a spectator who comes in during the game has seen none of it
      const back =
        last || t.seat !== null
          ? "Back at the table: moves made meanwhile are not in the log"
          : "You came in during the game: the moves before are not in the log";
      if (moved && last?.kind !== "back") t.log.note("back", back);
      // the last take this page saw is not the last one made: no "Last move" or mark of it
      if (moved) t.last = null;
      this.resumedFrom = null;
    }
    const computer = new Set(
      (this.presence?.seats ?? []).filter((s) => s.computer).map((s) => s.seat),
    );
    const { added, took } = t.log.add(
      u.events ?? [],
      (ev) => eventWords(ev, (s) => this.who(s), this.cards!, lineOf),
      computer,
    );
    for (const e of added) if (e.seat !== t.seat || t.seat === null) said.push(e.text);
    if (took) t.last = took;
    const ended = before !== null && !before.game_over && u.view.game_over && u.view.result;
    if (ended && !u.events?.some((e) => e.kind === "game_over")) {
      // an ending before the last card (resigned, claimed, time ran out) has no event
      const result = u.view.result!;
      const who = (s: number) => this.who(s);
      if (result.ending === "resigned")
        for (const s of result.resigned ?? []) this.noteResigned(s, false);
      t.log.note(
        "over",
        `The game is over: ${result.ending === "resigned" ? winnersWords(result, who) : endingWords(result, who)}`,
      );
    }
    t.log.version = u.state_version;
    this.saveLog();
    const nowMine = this.isMyTurn();
    const wasMine = before !== null && before.to_move === t.seat && !before.game_over;
    if (this.screen !== "table") this.show("table");
    else this.renderTableNow();
    if (!before) this.renderChat(); // lines kept from before a reload: now with their colours
    if (nowMine && (!wasMine || u.re != null))
      said.push(`Your turn: take a card from ${lineWords(u.view.line)}`);
    if (said.length) this.announce(said.join(". ") + ".");
    if (nowMine && !t.confirm) {
      // (a question being answered, "Resign?", keeps the focus: the turn is announced)
      const a = document.activeElement;
      if (!wasMine || !a || a === document.body || a === this.main || a.id === "turn")
        this.focusStart();
    }
    if (u.view.game_over && u.view.result)
      this.announce(`Game over. ${document.getElementById("result-words")?.textContent ?? ""}`);
    if (ended) {
      // the end in view, unless the person is typing (a chat line) somewhere
      const a = document.activeElement;
      if (!a || !["INPUT", "TEXTAREA", "SELECT"].includes(a.tagName))
        document.getElementById("end-h")?.focus();
    }
  }

  isMyTurn(): boolean {
    const v = this.t.view;
    return (
      !!v && !v.game_over && v.to_move != null && v.to_move === this.t.seat && !!v.takes?.length
    );
  }

  /** `White (Ann)`, with `you` for this browser's seat. */
  who(seat: number): string {
    const v = this.t.view;
    const colours = v?.colours ?? ["white", "black", "lilac"];
    const names = this.names();
    if (seat !== this.t.seat) return seatLabel(colours, seat, names);
    return `${cap(colours[seat] ?? "")} (${names[seat] ? `${names[seat]}, ` : ""}you)`;
  }

  names(): (string | null)[] {
    return (this.presence?.seats ?? []).map((s) => s.name ?? null);
  }

  // ------------------------------------------------------------------ the memory rule's log
  private casual(): boolean {
    return (this.t.view?.options.memory ?? "strict") === "casual";
  }

  visibleLog(): LogEntry[] {
    return this.t.log.visible(this.t.seat, this.t.view?.to_move ?? null, this.casual());
  }

  sinceLastDecision(): LogEntry[] {
    return this.t.seat === null ? [] : this.t.log.since(this.t.seat);
  }

  private saveLog(): void {
    const h = this.here;
    if (h)
      savedLog.put(h.table, h.seat, this.t.log.save(h.seat, this.casual(), this.t.view?.players));
  }

  private restoreLog(table: string, seat: number | null): void {
    this.t.log = GameLog.load(savedLog.get(table, seat));
    this.t.last = this.t.log.lastTook();
  }

  // ------------------------------------------------------------------ actions
  /** A refusal in a plain sentence (`seat`: the seat asked for, in the page's words). */
  refused(e: unknown, seat: string | null = null): void {
    if (e instanceof ProtocolError) this.say(refusalWords(e.code, e.message, seat));
    else if (e instanceof Error) this.say(e.message);
  }

  /** `White (seat 1)`: a seat of `table` as the join form names it. */
  private seatWords(table: string, seat: number): string {
    const t =
      this.tables.find((x) => x.id === table) ?? (this.summary?.id === table ? this.summary : null);
    const colours = ["white", "black", t?.options.third_colour ?? "third colour"];
    return `${cap(colours[seat] ?? "")} (seat ${seat + 1})`;
  }

  async take(option: TakeOption): Promise<void> {
    const c = this.client;
    const t = this.t;
    if (!c || t.pending || !this.isMyTurn()) return;
    t.pending = true;
    this.renderTableNow();
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
        this.say("The game moved on: choose again.");
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

  private sendChat(e: Event): void {
    e.preventDefault();
    const text = this.chatInput.value.trim();
    if (!text || !this.client) return;
    this.client
      .command("chat", { text })
      .then(() => {
        this.chatInput.value = "";
      })
      .catch((err) => this.refused(err));
  }

  private tick(): void {
    const c = this.client;
    if (c && !c.closed && Date.now() - c.lastSent > (c.welcome.limits.idle_timeout * 1000) / 3) {
      c.request("ping", {}).catch(() => undefined); // a quiet table is not an idle client
    }
    if (this.screen === "table" && this.t.view?.clock?.running != null) {
      for (const el of document.querySelectorAll<HTMLElement>("[data-clock]")) {
        el.textContent = this.clockText(Number(el.dataset.clock));
      }
    }
  }

  clockText(seat: number): string {
    const clock = this.t.view?.clock;
    if (!clock) return "";
    let left = clock.left_ms[seat] ?? 0;
    if (clock.running === seat && !this.t.view?.game_over)
      left = Math.max(0, left - (performance.now() - this.t.viewAt));
    const s = Math.ceil(left / 1000);
    // left_ms is the move's time and the reserve together: the reserve is a part of
    // it (what is left of it once the move's own time is used up), not time on top
    const reserve = Math.min(clock.reserve_ms[seat] ?? 0, left);
    const r = clock.reserve_ms[seat] ? `, ${fmt(Math.ceil(reserve / 1000))} of it reserve` : "";
    return `${fmt(s)} left${r}${clock.running === seat ? ", running" : ""}`;
  }

  /** Keyboard focus to the card to take next to this seat's pawn (as the terminal's
   * cursor), unless the person is typing somewhere. */
  private focusStart(): void {
    const a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.tagName === "SELECT")) return;
    const first = this.main.querySelector<HTMLElement>(".cell.take");
    first?.focus({ preventScroll: false });
  }

  /** Keyboard focus to the turn banner (the screen does not scroll), unless the person
   * is typing somewhere. */
  focusTurn(): void {
    const a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.tagName === "SELECT")) return;
    document.getElementById("turn")?.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ screens
  /** An invite or watch link in the address: kept as `prefill`, and gone from the
   * address (true if there was one). */
  private readHash(): boolean {
    const m = /^#\/(join|watch)\/([A-Za-z0-9_-]{1,32})(?:\/([A-Za-z0-9_-]{1,64}))?$/.exec(
      location.hash,
    );
    if (m) {
      this.prefill = { table: m[2], invite: m[3] ?? "", watch: m[1] === "watch" };
      history.replaceState(null, "", location.pathname);
    }
    return !!m;
  }

  /** A link opened while the page runs: its join form, as on a first visit (`connect`
   * shows it if the page is still connecting); at a table, the page says to leave it. */
  private async followLink(): Promise<void> {
    const p = this.prefill;
    const c = this.client;
    if (!p) return;
    if (this.here) {
      this.prefill = null;
      this.say("You are at a table: leave it first, then open the link again.");
      return;
    }
    if (!c) return;
    p.known = await lookUp(this, p.table);
    if (this.prefill === p && this.client === c && !this.here) this.show("join");
  }

  private toLobby(): void {
    if (this.here || this.screen === "lobby") return;
    this.prefill = null;
    this.show("lobby");
  }

  private route(): void {
    const help = location.hash === "#/help";
    byId("help").hidden = !help;
    this.main.hidden = help;
    if (help) byId("help-h").focus();
  }

  show(screen: Screen): void {
    const changed = this.screen !== screen;
    this.screen = screen;
    clearInterval(this.listTimer);
    if (screen === "lobby") {
      renderLobby(this);
      this.listTables();
      this.listTimer = window.setInterval(() => this.listTables(), 4000);
    } else if (screen === "create") renderCreate(this);
    else if (screen === "join") renderJoin(this);
    else if (screen === "waiting") renderWaiting(this);
    else if (PLAYERS_SCREENS.includes(screen)) renderPlayers(this, screen as PlayersScreen);
    else this.renderTableNow();
    document.title = `${screen === "table" ? "At the table" : cap(screen)} · Kupferkessel Co.`;
    if (changed) {
      if (!this.status.classList.contains("info")) this.say("");
      window.scrollTo(0, 0);
      const heading = this.main.querySelector<HTMLElement>("h1, h2");
      if (heading && screen !== "table") {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
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
    if (helloName() !== this.helloSaid) {
      // a spectator's chat lines go by the name of the connection's hello: said under
      // another name (or none), it is said again, and the new connection watches
      this.client = null;
      c.close();
      void this.connect();
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
    if (this.pressing) this.redrawAfterPress = true;
    else this.renderTableNow();
  }

  /** Keep `pressing`: from a press until its click (a tap's comes a moment after the
   * finger is lifted, a mouse button's at once), or until it is cancelled; a press that
   * ends without a click (let go elsewhere) or lasts long lets news through after a
   * moment all the same. What waited runs after the click has done its own. */
  private watchPresses(): void {
    const pressed = (ms: number) => {
      clearTimeout(this.pressTimer);
      this.pressing = true;
      this.pressTimer = window.setTimeout(() => released(), ms);
    };
    const released = () => {
      clearTimeout(this.pressTimer);
      this.pressing = false;
      setTimeout(() => {
        if (this.pressing) return;
        for (const go of this.afterPress.splice(0)) go();
        if (this.redrawAfterPress) {
          this.redrawAfterPress = false;
          this.renderTableNow();
        }
      }, 0);
    };
    document.addEventListener("pointerdown", (e) => e.isPrimary && pressed(1500), true);
    document.addEventListener(
      "pointerup",
      (e) => e.isPrimary && this.pressing && pressed(400),
      true,
    );
    for (const type of ["click", "pointercancel"]) document.addEventListener(type, released, true);
  }

  renderChat(): void {
    const names = this.chat.map((c) =>
      h(
        "li",
        {},
        h(
          "strong",
          {},
          c.seat != null && this.t.view
            ? `${cap(this.t.view.colours[c.seat] ?? "")} ${c.name}`
            : c.name,
        ),
        ": ",
        c.text,
      ),
    );
    replace(this.chatList, names.length ? names : h("li", { class: "muted" }, "No chat yet."));
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }
}

/** The settings panel lies over the top of the page: a tap or click anywhere else closes
 * it, as Esc inside it does (the focus back on its summary), so that a phone need not aim
 * at "Settings" again to see the grid under it. */
function closeSettingsOutside(): void {
  const settings = byId<HTMLDetailsElement>("settings");
  document.addEventListener(
    "pointerdown",
    (e) => {
      if (settings.open && !settings.contains(e.target as Node)) settings.open = false;
    },
    true,
  );
  settings.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !settings.open) return;
    settings.open = false;
    settings.querySelector("summary")?.focus();
  });
}

/** The name said in `hello`: a spectator's chat lines are named after it (PROTOCOL.md,
 * "chat"), so it is the person's, as the terminal client says its player's; the
 * program's name while the page knows none. */
function helloName(): string {
  const name = (account.get()?.name ?? prefs.name()).replace(/[\x00-\x1f\x7f-\x9f]/g, "").trim();
  return name ? [...name].slice(0, 32).join("").trim() : "kupferkessel-web";
}

/** What a spectator's page kept of `table`: its chat lines and its log. */
function forgetWatching(table: string): void {
  savedChat.forget(table, null);
  savedLog.forget(table, null);
}

function fmt(s: number): string {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function freshTable(): TableState {
  return {
    seat: null,
    view: null as GameView | null,
    version: 0,
    viewAt: 0,
    pending: false,
    selected: null,
    log: new GameLog(),
    last: null,
    confirm: null,
    inviteOpen: false,
  };
}

const app = new App();
void app.start();
