/**
 * The web client: lobby, new table, join by code or link, waiting, the table, the end,
 * rematch, watching; resumes a seat after a reload or a dropped connection. It speaks
 * protocol 1.1 through the client library and draws plain DOM.
 */
import { ConnectionClosed, KupferkesselClient, ProtocolError, lineOf } from "../lib/index";
import type {
  ChatLineMsg,
  CreateTableMsg,
  GameView,
  PresenceMsg,
  ServerMessage,
  TableSummary,
  TakeOption,
  Timing,
  UpdateMsg,
} from "../lib/protocol";
import { byId, h, replace } from "./dom";
import { here as hereStore, prefs, savedLog, tokens, type Here } from "./store";
import { renderTable, type LogEntry, type TableState } from "./table";
import { Cards, cap, eventWords, lineWords, seatLabel, seatStatus, terms } from "./words";

const VERSION = "0.1.0";
/** Milliseconds between two displayed moves of other seats, so each can be seen. */
const PACE = 900;

type Screen = "lobby" | "create" | "join" | "waiting" | "table";

export class App {
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
  private cursor: string | null = null;
  private nextCursor: string | null = null;
  t: TableState = freshTable();
  chat: ChatLineMsg[] = [];
  private queue: UpdateMsg[] = [];
  private pumping = false;
  private lastShown = 0;
  private retries = 0;
  private wantReady = true;
  private listTimer = 0;
  private sayTimer = 0;
  private prefill: { table: string; invite: string; watch: boolean } | null = null;
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
    this.chatBox = h("section", { class: "chat", "aria-labelledby": "chat-h" }, h("h2", { id: "chat-h" }, "Chat"), this.chatList, form);
    window.addEventListener("hashchange", () => this.route());
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
    try {
      client = await KupferkesselClient.connect(this.wsUrl(), { client: "kupferkessel-web", clientVersion: VERSION });
    } catch (e) {
      this.scheduleReconnect(e);
      return;
    }
    this.client = client;
    this.retries = 0;
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
    const h = this.here ?? hereStore.get();
    if (h) await this.rejoin(h);
    else if (this.prefill) this.show(this.prefill.watch ? "join" : "join");
    else this.show("lobby");
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
        h("p", {}, "Another window or device took this seat up with its token, so this page let go of it."),
        h("p", { class: "buttons" }, h("button", { class: "primary", id: "play-here", onclick: again }, "Play here again")),
      ),
    );
    byId("away-h").focus();
  }

  /** Back at the table this tab was at: resume the seat, or watch again. */
  private async rejoin(h: Here): Promise<void> {
    const c = this.client!;
    try {
      if (h.seat !== null) {
        const token = tokens.get(h.table, h.seat);
        if (!token) throw new Error("no token");
        await c.request("resume", { token });
      } else {
        await c.request("watch", { table: h.table, invite: h.invite ?? undefined });
      }
    } catch (e) {
      if (h.seat !== null && e instanceof ProtocolError && (e.code === "bad_token" || e.code === "no_such_table")) {
        tokens.forget(h.table, h.seat);
      }
      this.setHere(null);
      this.show("lobby");
      this.say(e instanceof ProtocolError ? `Could not go back to the table: ${e.message}` : "");
    }
  }

  private setConn(text: string): void {
    this.conn.textContent = text;
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
        if (this.wantReady) this.client?.command("ready", { ready: true }).catch((e) => this.refused(e));
        break;
      case "resumed":
        this.enterTable({ table: msg.table, seat: msg.seat, invite: this.here?.invite ?? null });
        if (this.t.log.length) {
          // the moves made while away come as a fresh view, not as events
          this.t.log.push({ kind: "note", text: "Back at the table: moves made meanwhile are not in the log", start: this.t.turnStart });
        }
        break;
      case "watching":
        this.enterTable({ table: msg.table, seat: null, invite: this.here?.invite ?? this.prefill?.invite ?? null });
        break;
      case "rematched": {
        const old = this.here;
        if (old && old.seat !== null && msg.seat != null) {
          const token = tokens.get(old.table, old.seat);
          tokens.forget(old.table, old.seat);
          if (token) tokens.put(msg.table, msg.seat, token);
        }
        this.enterTable({ table: msg.table, seat: msg.seat ?? null, invite: old?.invite ?? null });
        this.say("The rematch begins: colours move one seat on.", true);
        break;
      }
      case "left": {
        const h = this.here;
        if (h && h.seat !== null && this.presence?.state !== "playing") tokens.forget(h.table, h.seat);
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
        if (this.chat.length > 200) this.chat.shift();
        this.renderChat();
        break;
      case "tables":
        this.tables = msg.tables;
        this.tablesTotal = msg.total ?? msg.tables.length;
        this.nextCursor = msg.next ?? null;
        if (this.screen === "lobby") this.renderTables();
        break;
      case "error":
        if (msg.re == null) this.say(`Server: ${msg.message}`);
        break;
      case "bye":
        this.say(msg.reason === "shutdown" ? "The server is stopping; your seat is kept if it comes back." : `The server closed the connection: ${msg.message || msg.reason}`);
        break;
      default:
        break;
    }
  }

  private enterTable(h: Here): void {
    const same = this.here?.table === h.table && this.here?.seat === h.seat;
    this.setHere(h);
    if (!same) {
      this.t = freshTable();
      this.chat = [];
      this.queue = [];
      this.renderChat();
      if (h.seat !== null) this.restoreLog(h.table, h.seat);
    }
    this.t.seat = h.seat;
    this.invite = h.invite ?? this.invite;
    if (this.summary?.id !== h.table) this.summary = this.tables.find((t) => t.id === h.table) ?? null;
  }

  private onPresence(msg: PresenceMsg): void {
    const before = this.presence?.table === msg.table ? this.presence : null;
    this.presence = msg;
    if (before && msg.state === "playing") this.logPresence(before, msg);
    if (msg.state === "lobby") this.show("waiting");
    else if (this.screen !== "table") {
      this.show("table");
      if (this.isMyTurn()) this.focusStart();
    } else this.renderTableNow();
    if (this.screen === "waiting") this.renderWaiting();
  }

  /** Resignations, seats a computer took over and people who came back go into the
   * log (and are read out), as moves do. */
  private logPresence(before: PresenceMsg, now: PresenceMsg): void {
    const said: string[] = [];
    for (const s of now.seats) {
      const b = before.seats[s.seat];
      if (!b || s.bot) continue;
      let text: string | null = null;
      if (s.resigned && !b.resigned) text = `${this.who(s.seat)} resigned${s.computer ? ": a computer plays the seat to the end" : ""}`;
      else if (s.absent && !b.absent) text = `${this.who(s.seat)} is away: a computer plays the seat`;
      else if (!s.absent && b.absent && !s.resigned) text = `${this.who(s.seat)} is back`;
      if (text) {
        this.t.log.push({ kind: "presence", seat: s.seat, text, start: this.t.turnStart });
        said.push(text);
      }
    }
    if (said.length) {
      this.announce(said.join(". ") + ".");
      this.saveLog();
    }
  }

  /** Updates are shown in order; another seat's move waits until the one before has
   * been on screen for `PACE` ms, so every move can be seen. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const u = this.queue[0];
        const others = u.re == null && u.events?.some((e) => "seat" in e && e.seat !== this.t.seat && e.kind !== "turn_passed");
        const wait = this.lastShown + PACE - performance.now();
        if (others && wait > 0) await new Promise((r) => setTimeout(r, wait));
        this.queue.shift();
        this.apply(u);
        this.lastShown = performance.now();
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
    let lastTook: LogEntry | null = null;
    let timedOut = false; // a computer moved for the seat: the take decided nothing
    for (const ev of u.events ?? []) {
      const seat = "seat" in ev ? ev.seat : undefined;
      if (ev.kind === "turn_passed" || (ev.kind === "moved" && t.turnSeat !== ev.seat)) {
        t.turnSeat = ev.seat;
        t.turnStart = t.log.length;
      }
      if (ev.kind === "timed_out") timedOut = true;
      const text = eventWords(ev, (s) => this.who(s), this.cards!, lineOf);
      if (text === null) continue;
      const entry: LogEntry = { kind: ev.kind, seat, text, start: t.turnStart };
      if (ev.kind === "took") {
        entry.row = ev.row;
        entry.col = ev.col;
        entry.decided = !timedOut;
        lastTook = entry;
      }
      if (ev.kind === "refilled" && lastTook) lastTook.refill = [ev.row, ev.col];
      t.log.push(entry);
      if (seat !== t.seat || t.seat === null) said.push(text);
    }
    if (lastTook) t.last = lastTook;
    this.saveLog();
    const nowMine = this.isMyTurn();
    const wasMine = before !== null && before.to_move === t.seat && !before.game_over;
    if (this.screen !== "table") this.show("table");
    else this.renderTableNow();
    if (nowMine && (!wasMine || u.re != null)) said.push(`Your turn: take a card from ${lineWords(u.view.line)}`);
    if (said.length) this.announce(said.join(". ") + ".");
    if (nowMine) {
      const a = document.activeElement;
      if (!wasMine || !a || a === document.body || a === this.main) this.focusStart();
    }
    if (u.view.game_over && u.view.result) this.announce(`Game over. ${document.getElementById("result-words")?.textContent ?? ""}`);
  }

  isMyTurn(): boolean {
    const v = this.t.view;
    return !!v && !v.game_over && v.to_move != null && v.to_move === this.t.seat && !!v.takes?.length;
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
  /** The log entries the table's memory rule lets this seat see: with strict memory
   * those since its last decision, from the start of the last turn in which it chose a
   * card (a corner stop or a computer's move for it decides nothing, so every take is
   * seen before it chooses again); a spectator follows the seat to move; with casual
   * memory all. */
  visibleLog(): LogEntry[] {
    const t = this.t;
    const v = t.view;
    if (!v) return t.log;
    if ((v.options.memory ?? "strict") === "casual" && t.seat !== null) return t.log;
    const seat = t.seat ?? v.to_move ?? 0;
    const i = this.lastDecision(seat);
    return i < 0 ? t.log : t.log.slice(t.log[i].start ?? 0);
  }

  /** The log index of `seat`'s last decided take, or -1. */
  private lastDecision(seat: number): number {
    const log = this.t.log;
    let i = log.length - 1;
    while (i >= 0 && !(log[i].kind === "took" && log[i].seat === seat && log[i].decided !== false)) i--;
    return i;
  }

  /** What happened since this seat's last take: from the next seat's move on. */
  sinceLastDecision(): LogEntry[] {
    const t = this.t;
    if (t.seat === null) return [];
    const i = this.lastDecision(t.seat);
    let j = i + 1;
    if (i >= 0) while (j < t.log.length && !(t.log[j].kind === "moved" && t.log[j].seat !== t.seat)) j++;
    return t.log.slice(Math.max(0, j));
  }

  private saveLog(): void {
    const h = this.here;
    if (!h || h.seat === null) return;
    const keep = this.visibleLog();
    const offset = this.t.log.length - keep.length;
    savedLog.put(h.table, h.seat, {
      log: keep.map((e) => ({ ...e, start: Math.max(0, (e.start ?? 0) - offset) })),
      turnSeat: this.t.turnSeat,
      turnStart: Math.max(0, this.t.turnStart - offset),
    });
  }

  private restoreLog(table: string, seat: number): void {
    const saved = savedLog.get(table, seat) as { log: LogEntry[]; turnStart: number; turnSeat: number | null } | null;
    if (saved && Array.isArray(saved.log)) {
      this.t.log = saved.log;
      this.t.turnStart = saved.turnStart ?? 0;
      this.t.turnSeat = saved.turnSeat ?? null;
      this.t.last = [...saved.log].reverse().find((e) => e.kind === "took") ?? null;
    }
  }

  // ------------------------------------------------------------------ actions
  refused(e: unknown): void {
    if (e instanceof ProtocolError) this.say(`Refused: ${e.message}`);
    else if (e instanceof Error) this.say(e.message);
  }

  async take(option: TakeOption): Promise<void> {
    const c = this.client;
    const t = this.t;
    if (!c || t.pending || !this.isMyTurn()) return;
    t.pending = true;
    this.renderTableNow();
    try {
      await c.take(t.version, option);
      t.selected = null;
      this.say("");
    } catch (e) {
      t.pending = false;
      if (e instanceof ProtocolError && e.code === "stale_state") this.say("The game moved on: choose again.");
      else this.refused(e);
      this.renderTableNow();
    }
  }

  act(type: "resign" | "claim" | "back" | "leave"): void {
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
    if (clock.running === seat && !this.t.view?.game_over) left = Math.max(0, left - (performance.now() - this.t.viewAt));
    const s = Math.ceil(left / 1000);
    const reserve = clock.reserve_ms[seat] ?? 0;
    const r = reserve ? `, reserve ${fmt(Math.ceil(reserve / 1000))}` : "";
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

  // ------------------------------------------------------------------ screens
  private readHash(): void {
    const m = /^#\/(join|watch)\/([A-Za-z0-9_-]{1,32})(?:\/([A-Za-z0-9_-]{1,64}))?$/.exec(location.hash);
    if (m) {
      this.prefill = { table: m[2], invite: m[3] ?? "", watch: m[1] === "watch" };
      history.replaceState(null, "", location.pathname);
    }
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
      this.renderLobby();
      this.listTables();
      this.listTimer = window.setInterval(() => this.listTables(), 4000);
    } else if (screen === "create") this.renderCreate();
    else if (screen === "join") this.renderJoin();
    else if (screen === "waiting") this.renderWaiting();
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

  private listTables(): void {
    const c = this.client;
    if (!c || c.closed) return;
    c.request("list_tables", { open_first: true, limit: 50, cursor: this.cursor ?? undefined }).catch(() => {
      this.cursor = null; // a cursor the server no longer knows: back to the first page
    });
  }

  private nameField(): HTMLInputElement {
    const input = h("input", {
      id: "player-name",
      type: "text",
      required: true,
      maxlength: this.client?.welcome.limits.max_name ?? 32,
      autocomplete: "nickname",
      value: prefs.name(),
    });
    input.addEventListener("change", () => prefs.setName(input.value.trim()));
    return input;
  }

  private playerName(): string | null {
    const input = document.getElementById("player-name") as HTMLInputElement | null;
    const name = (input?.value ?? prefs.name()).trim();
    if (!name) {
      this.say("Type your name first.");
      input?.focus();
      return null;
    }
    prefs.setName(name);
    return name;
  }

  private renderLobby(): void {
    const server = this.client?.welcome.server ?? "the server";
    replace(
      this.main,
      h(
        "section",
        { class: "lobby", "aria-labelledby": "lobby-h" },
        h("h2", { id: "lobby-h" }, `Tables on ${server}`),
        h("p", {}, h("label", { for: "player-name" }, "Your name "), this.nameField()),
        h(
          "p",
          { class: "buttons" },
          h("button", { id: "new-table", class: "primary", onclick: () => this.show("create") }, "New table"),
          h("button", { id: "join-code", onclick: () => this.show("join") }, "Join or watch by code"),
          h("button", { id: "refresh", onclick: () => this.listTables() }, "Refresh"),
        ),
        h("div", { id: "tables", "aria-live": "polite" }),
      ),
    );
    this.renderTables();
  }

  private renderTables(): void {
    const el = document.getElementById("tables");
    if (!el) return;
    if (!this.client) {
      replace(el, h("p", {}, "Connecting to the server..."));
      return;
    }
    if (!this.tables.length) {
      replace(el, h("p", {}, "No tables yet: make a new one."));
      return;
    }
    const rows = this.tables.map((t) => {
      const mine = tokens.seatsAt(t.id);
      const free = t.seats.find((s) => !s.name);
      const colours = ["white", "black", t.options.third_colour ?? "lilac"];
      const seats = t.seats.map((s) => `${cap(colours[s.seat])}: ${s.name ? `${s.name} (${s.bot ? "bot" : s.ready ? "ready" : seatStatus(s)})` : "free"}`);
      const buttons = [];
      if (mine.length) {
        buttons.push(h("button", { class: "primary", "data-key": `resume-${t.id}`, onclick: () => void this.rejoin({ table: t.id, seat: mine[0] }) }, "Back to my seat"));
      } else if (t.state === "lobby" && free) {
        buttons.push(h("button", { class: "primary", "data-key": `join-${t.id}`, onclick: () => this.join(t.id, null, null, t.seeded) }, "Join"));
      }
      buttons.push(h("button", { "data-key": `watch-${t.id}`, onclick: () => this.watch(t.id, null) }, "Watch"));
      return h(
        "li",
        { class: "table-row" },
        h("h3", {}, t.name, " ", h("span", { class: "tag" }, t.state === "lobby" ? "waiting for players" : t.state), mine.length ? h("span", { class: "tag mine" }, "your seat") : null),
        h("p", { class: "terms" }, terms(t.options, t.timing, t.private), t.seeded ? ", seeded deal (its creator may know every card)" : "", t.spectators ? `, ${t.spectators} watching` : ""),
        h("p", { class: "seats" }, seats.join(" · ")),
        h("p", { class: "buttons" }, buttons),
      );
    });
    const page = (cursor: string | null) => () => {
      this.cursor = cursor;
      this.listTables();
    };
    const more =
      this.tablesTotal > this.tables.length || this.cursor
        ? h(
            "p",
            { class: "buttons" },
            `${this.tables.length} of ${this.tablesTotal} tables shown.`,
            this.cursor ? h("button", { "data-key": "first-page", onclick: page(null) }, "First page") : null,
            this.nextCursor ? h("button", { "data-key": "next-page", onclick: page(this.nextCursor) }, "More tables") : null,
          )
        : null;
    replace(el, h("ul", { class: "tables" }, rows), more);
  }

  private join(table: string, invite: string | null, seat: number | null, seeded = false): void {
    const name = this.playerName();
    const c = this.client;
    if (!name || !c) return;
    this.invite = invite;
    this.wantReady = true;
    c.request("join", { table, player: name, invite: invite || undefined, seat: seat ?? undefined, seeded: seeded || undefined }).catch((e) =>
      this.refused(e),
    );
  }

  private watch(table: string, invite: string | null): void {
    const c = this.client;
    if (!c) return;
    this.setHere({ table, seat: null, invite });
    c.request("watch", { table, invite: invite || undefined }).catch((e) => {
      this.setHere(null);
      this.refused(e);
    });
  }

  private renderJoin(): void {
    const p = this.prefill;
    const table = h("input", { id: "join-table", type: "text", required: true, pattern: "[A-Za-z0-9_\\-]+", value: p?.table ?? "" });
    const invite = h("input", { id: "join-invite", type: "text", pattern: "[A-Za-z0-9_\\-]*", value: p?.invite ?? "", autocomplete: "off" });
    const seat = h("select", { id: "join-seat" }, h("option", { value: "" }, "the first free seat"), [0, 1, 2].map((s) => h("option", { value: s }, `${cap(["white", "black", "third colour"][s])} (seat ${s + 1})`)));
    const go = (watch: boolean) => (e: Event) => {
      e.preventDefault();
      this.prefill = null;
      if (watch) this.watch(table.value.trim(), invite.value.trim() || null);
      else this.join(table.value.trim(), invite.value.trim() || null, seat.value === "" ? null : Number(seat.value));
    };
    replace(
      this.main,
      h(
        "section",
        { class: "form", "aria-labelledby": "join-h" },
        h("h2", { id: "join-h" }, p ? "You are invited to a table" : "Join or watch by code"),
        h(
          "form",
          { onsubmit: go(p?.watch ?? false) },
          field("Your name", this.nameField()),
          field("Table id", table),
          field("Invite code (private tables)", invite),
          field("Seat", seat),
          h(
            "p",
            { class: "buttons" },
            h("button", { type: "submit", class: "primary", id: "join-go" }, p?.watch ? "Watch" : "Join"),
            h("button", { type: "button", onclick: go(!(p?.watch ?? false)) }, p?.watch ? "Join" : "Watch"),
            h("button", { type: "button", onclick: () => ((this.prefill = null), this.show("lobby")) }, "Back"),
          ),
        ),
      ),
    );
  }

  private renderCreate(): void {
    const levels = this.client?.welcome.bot_levels ?? [];
    const name = this.nameField();
    const tableName = h("input", { id: "table-name", type: "text", maxlength: this.client?.welcome.limits.max_table_name ?? 48, value: prefs.name() ? `${prefs.name()}'s table` : "Kitchen table" });
    const players = h("select", { id: "opt-players" }, h("option", { value: "2" }, "2 players"), h("option", { value: "3" }, "3 players"));
    const recipes = h("input", { id: "opt-recipes", type: "checkbox" });
    const startCard = h("select", { id: "opt-start" }, h("option", { value: "no_player_colors" }, "no player colours (rule book)"), h("option", { value: "not_own_color" }, "not your own colour"));
    const memory = h("select", { id: "opt-memory" }, h("option", { value: "strict" }, "strict: only kettle tops"), h("option", { value: "casual" }, "casual: see your own kettle"));
    const third = h("select", { id: "opt-third" }, (this.client?.welcome.catalogue.third_colours ?? ["lilac", "brown", "green", "gray"]).map((c) => h("option", { value: c }, c)));
    const priv = h("input", { id: "opt-private", type: "checkbox" });
    const seed = h("input", { id: "opt-seed", type: "number", min: 0, max: Number.MAX_SAFE_INTEGER, placeholder: "random", inputmode: "numeric" });
    const mySeat = h("select", { id: "opt-seat" });
    const move = h("input", { id: "opt-move", type: "number", min: 1, max: 86400, placeholder: "no clock", inputmode: "numeric" });
    const reserve = h("input", { id: "opt-reserve", type: "number", min: 0, max: 86400, value: 0, inputmode: "numeric" });
    const grace = h("input", { id: "opt-grace", type: "number", min: 0, max: 86400, value: 60, inputmode: "numeric" });
    const absentAfter = h("input", { id: "opt-absent", type: "number", min: 1, max: 100, value: 3, inputmode: "numeric" });
    const others = h("div", { id: "other-seats" });
    const seatNames = (n: number) => ["White", "Black", cap(third.value)].slice(0, n);
    const redraw = () => {
      const n = Number(players.value);
      third.disabled = n !== 3;
      const keep = mySeat.value;
      replace(mySeat, seatNames(n).map((c, s) => h("option", { value: s }, `${c} (seat ${s + 1}${s === 0 ? ", begins" : ""})`)));
      mySeat.value = keep && Number(keep) < n ? keep : "0";
      const me = Number(mySeat.value);
      const old = new Map([...others.querySelectorAll("select")].map((s) => [s.id, s.value]));
      replace(
        others,
        seatNames(n).map((c, s) =>
          s === me
            ? null
            : field(
                `${c} (seat ${s + 1})`,
                h(
                  "select",
                  { id: `seat-${s}` },
                  levels.map((l) => h("option", { value: l, selected: old.get(`seat-${s}`) === l }, `a computer player, ${l}`)),
                  h("option", { value: "", selected: old.get(`seat-${s}`) === "" }, "a person (wait for them)"),
                ),
              ),
        ),
      );
    };
    players.addEventListener("change", redraw);
    third.addEventListener("change", redraw);
    mySeat.addEventListener("change", redraw);
    const submit = (e: Event) => {
      e.preventDefault();
      const player = this.playerName();
      const c = this.client;
      if (!player || !c) return;
      const n = Number(players.value) as 2 | 3;
      const me = Number(mySeat.value);
      const bots = [];
      for (let s = 0; s < n; s++) {
        const sel = document.getElementById(`seat-${s}`) as HTMLSelectElement | null;
        if (s !== me && sel && sel.value) bots.push({ seat: s, level: sel.value });
      }
      const timing: Timing = {};
      if (move.value) timing.move = Number(move.value);
      if (move.value && Number(reserve.value)) timing.reserve = Number(reserve.value);
      if (grace.value !== "" && Number(grace.value) !== 60) timing.grace = Number(grace.value);
      if (absentAfter.value !== "" && Number(absentAfter.value) !== 3) timing.absent_after = Number(absentAfter.value);
      const msg: Omit<CreateTableMsg, "type" | "id"> = {
        name: tableName.value.trim() || `${player}'s table`,
        private: priv.checked || undefined,
        options: {
          players: n,
          recipes: recipes.checked || undefined,
          start_card: startCard.value === "no_player_colors" ? undefined : (startCard.value as "not_own_color"),
          memory: memory.value === "strict" ? undefined : "casual",
          third_colour: n === 3 ? (third.value as "lilac") : undefined,
          seed: seed.value === "" ? undefined : Number(seed.value),
        },
        bots,
        player,
        seat: me,
        timing: Object.keys(timing).length ? timing : undefined,
      };
      this.wantReady = true;
      c.request("create_table", msg).catch((err) => this.refused(err));
    };
    replace(
      this.main,
      h(
        "section",
        { class: "form", "aria-labelledby": "create-h" },
        h("h2", { id: "create-h" }, "New table"),
        h(
          "form",
          { onsubmit: submit },
          field("Your name", name),
          field("Table name", tableName),
          h(
            "fieldset",
            {},
            h("legend", {}, "The game"),
            field("Players", players),
            field("Recipes (variant)", recipes),
            field("Memory", memory),
            field("Starting card", startCard),
            field("Third colour", third),
          ),
          h("fieldset", {}, h("legend", {}, "Seats"), field("Your seat", mySeat), others),
          h(
            "fieldset",
            {},
            h("legend", {}, "Time and privacy"),
            field("Seconds per move (empty: no clock)", move),
            field("Reserve seconds", reserve),
            field("Grace period for a lost connection (s)", grace),
            field("Away after time-outs in a row", absentAfter),
            field("Private (invite code)", priv),
            field("Seed for a reproducible deal (others are told you chose it)", seed),
          ),
          h(
            "p",
            { class: "buttons" },
            h("button", { type: "submit", class: "primary", id: "create-go" }, "Create table"),
            h("button", { type: "button", onclick: () => this.show("lobby") }, "Back"),
          ),
        ),
      ),
    );
    redraw();
  }

  private renderWaiting(): void {
    const p = this.presence;
    const s = this.summary;
    const seat = this.t.seat;
    const colours = ["white", "black", s?.options.third_colour ?? "lilac"];
    const me = seat !== null ? p?.seats[seat] : undefined;
    const link = this.invite && this.here ? `${location.origin}/#/join/${this.here.table}/${this.invite}` : this.here ? `${location.origin}/#/join/${this.here.table}` : "";
    const copy = () => {
      navigator.clipboard?.writeText(link).then(
        () => this.say("Link copied.", true),
        () => this.say("Copy the link by hand."),
      );
    };
    replace(
      this.main,
      h(
        "section",
        { class: "waiting", "aria-labelledby": "wait-h" },
        h("h2", { id: "wait-h" }, s?.name ?? "Your table", ": waiting for players"),
        s ? h("p", { class: "terms" }, terms(s.options, s.timing, s.private)) : null,
        h(
          "ul",
          { class: "seat-list", "aria-label": "Seats" },
          (p?.seats ?? []).map((x) =>
            h(
              "li",
              {},
              h("span", { class: `tag c-${colours[x.seat]}` }, cap(colours[x.seat])),
              " ",
              x.name ? `${x.name}${x.seat === seat ? " (you)" : ""}` : "free seat",
              " ",
              h("span", { class: "state" }, x.name ? (x.bot ? "bot, ready" : x.ready ? "ready" : "not ready") : "waiting"),
            ),
          ),
        ),
        h(
          "p",
          {},
          "Table id ",
          h("code", { id: "table-id" }, this.here?.table ?? ""),
          this.invite ? [" · invite code ", h("code", { id: "invite-code" }, this.invite)] : null,
        ),
        link ? h("p", {}, "Invite link: ", h("a", { id: "invite-link", href: link }, link), " ", h("button", { onclick: copy }, "Copy link")) : null,
        h(
          "p",
          { class: "buttons" },
          seat !== null ? h("button", { id: "ready", class: me?.ready ? "" : "primary", "aria-pressed": me?.ready ? "true" : "false", onclick: () => this.ready(!me?.ready) }, me?.ready ? "Ready (press to wait)" : "I am ready") : null,
          h("button", { id: "leave", onclick: () => this.act("leave") }, "Leave the table"),
        ),
        h("p", {}, "The game begins when every seat is taken and everyone is ready."),
      ),
      this.chatBox,
    );
  }

  renderTableNow(): void {
    if (this.screen !== "table") return;
    renderTable(this);
  }

  renderChat(): void {
    const names = this.chat.map((c) =>
      h("li", {}, h("strong", {}, c.seat != null && this.t.view ? `${cap(this.t.view.colours[c.seat] ?? "")} ${c.name}` : c.name), ": ", c.text),
    );
    replace(this.chatList, names.length ? names : h("li", { class: "muted" }, "No chat yet."));
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }
}

function fmt(s: number): string {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function field(label: string, input: HTMLElement): HTMLElement {
  const id = input.id;
  const box = input instanceof HTMLInputElement && input.type === "checkbox";
  return h("p", { class: box ? "field check" : "field" }, box ? [input, " ", h("label", { for: id }, label)] : [h("label", { for: id }, label), input]);
}

function freshTable(): TableState {
  return {
    seat: null,
    view: null as GameView | null,
    version: 0,
    viewAt: 0,
    pending: false,
    selected: null,
    log: [],
    turnStart: 0,
    turnSeat: null,
    last: null,
    confirm: null,
  };
}

const app = new App();
void app.start();
