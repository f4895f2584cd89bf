/**
 * The table's updates, shown in order and paced (`pace.ts`), each one's events logged
 * and read out; after a reconnect or a reload, the moves missed meanwhile (protocol 1.4,
 * `missed.ts`) shown first, as if watched; the presence news that goes into the log
 * (resignations, seats a computer took over, people back); and the log kept by the
 * table's memory rule.
 */
import { lineOf } from "../lib/index";
import type { MissedMsg, PresenceMsg, UpdateMsg } from "../lib/protocol";
import type { UpdatesHost } from "./host";
import { _, ngettext } from "./i18n";
import { GameLog, type LogEntry } from "./log";
import type { Pacer } from "./pace";
import type { Presses } from "./presses";
import { steps, stopsAtCorner } from "./steps";
import { savedLog } from "./store";
import { endingWords, eventWords, lineWords, winnersWords } from "./words";

export class Updates {
  private queue: UpdateMsg[] = [];
  private pumping = false;
  /** The state version the log had seen when the seat was resumed (null: not resuming). */
  private resumedFrom: number | null = null;
  /** Asking for the moves missed (`catchUp`): nothing is shown until they come. */
  private catching = false;
  /** Updates of moves missed: shown at the pace of others' moves, one's own too. */
  private readonly replayed = new WeakSet<UpdateMsg>();
  /** Counts the tables and seats this page went to: an answer for one before is dropped. */
  private generation = 0;

  constructor(
    private readonly app: UpdatesHost,
    private readonly pacer: Pacer,
    private readonly presses: Presses,
  ) {}

  /** An update of the table: shown in its turn, a move at a time (`steps.ts`). */
  push(u: UpdateMsg): void {
    const since = this.resumedFrom;
    const c = this.app.client;
    if (
      since !== null &&
      since >= 0 &&
      !u.events?.length &&
      u.state_version > since &&
      !this.catching &&
      c &&
      c.welcome.protocol[0] === 1 &&
      c.welcome.protocol[1] >= 4
    ) {
      // back after moves were made: the fresh view waits until they are shown (1.4)
      void this.catchUp(since, u);
      return;
    }
    this.queue.push(...steps(u));
    void this.pump();
  }

  /** Moves missed are asked for: nothing is shown (nor taken) until they come. */
  get catchingUp(): boolean {
    return this.catching;
  }

  /** Another table or seat: the updates of the one before are dropped. */
  clear(): void {
    this.queue = [];
    this.catching = false;
    this.generation += 1;
  }

  /** Ask for the moves made since state `since`, then show them before `now` (and
   * before anything that came after it); without them (refused, a connection lost, an
   * older server), `now` alone, the log saying that moves were missed. */
  private async catchUp(since: number, now: UpdateMsg): Promise<void> {
    const c = this.app.client!;
    const generation = this.generation;
    const old = this.app.t.version === since ? this.app.t.view : null;
    this.catching = true;
    this.app.renderTableNow(); // nothing to take until the moves missed are shown
    let missed: MissedMsg | null = null;
    let shown: UpdateMsg[] = [];
    try {
      const m = await c.request("catch_up", { since });
      if (m.type === "missed") {
        // made into updates by a module of its own, loaded when first wanted
        shown = (await import("./missed")).missedUpdates(m, now, old);
        missed = m;
      }
    } catch {
      // shown as before 1.4: the fresh view, and a line in the log
    }
    if (generation !== this.generation) return;
    this.catching = false;
    if (shown.length) {
      this.resumedFrom = null;
      if (missed?.omitted) {
        const n = missed.omitted;
        this.app.t.log.note(
          "back",
          ngettext(
            "Back at the table: {n} earlier move is not shown",
            "Back at the table: {n} earlier moves are not shown",
            n,
          ),
        );
      }
      const parts = shown.flatMap((u) => steps(u));
      for (const u of parts) this.replayed.add(u);
      this.queue.unshift(...parts);
    } else this.queue.unshift(...steps(now));
    void this.pump();
  }

  /** The seat was resumed, or the table watched again: the fresh view that follows
   * says whether the game moved on meanwhile. */
  resumed(): void {
    this.resumedFrom = this.app.t.log.version;
  }

  /** Resignations, seats a computer took over and people who came back go into the
   * log (and are read out), as moves do. */
  presence(before: PresenceMsg, now: PresenceMsg): void {
    const said: string[] = [];
    for (const s of now.seats) {
      const b = before.seats[s.seat];
      if (!b || s.bot) continue;
      let text: string | null = null;
      if (s.resigned && !b.resigned) {
        if (this.noteResigned(s.seat, !!s.computer && now.state === "playing"))
          said.push(this.app.t.log.entries[this.app.t.log.entries.length - 1].text);
        continue;
      }
      if (now.state !== "playing") continue;
      if (s.absent && !b.absent)
        text = _("{who} is away: a computer plays the seat", { who: this.app.who(s.seat) });
      else if (!s.absent && b.absent && !s.resigned)
        text = _("{who} is back", { who: this.app.who(s.seat) });
      if (text) {
        this.app.t.log.note("presence", text, s.seat);
        said.push(text);
      }
    }
    if (said.length) {
      this.app.announce(said.join(". ") + ".");
      this.save();
    }
  }

  /** Log `seat`'s resignation once (the presence and the game's end may both tell of
   * it, in either order); false if it is in the log already. */
  private noteResigned(seat: number, computerPlays: boolean): boolean {
    if (this.app.t.log.entries.some((e) => e.kind === "resigned" && e.seat === seat)) return false;
    this.app.t.log.note(
      "resigned",
      computerPlays
        ? _("{who} resigned: a computer plays the seat to the end", { who: this.app.who(seat) })
        : _("{who} resigned", { who: this.app.who(seat) }),
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
      while (this.queue.length && !this.catching) {
        if (this.presses.pressing) {
          await this.presses.released(); // a finger or button is down (`presses.ts`)
          continue;
        }
        const u = this.queue[0];
        // another seat's move, or any corner stop (it comes with the take before it)
        const others =
          (u.re == null &&
            u.events?.some(
              (e) => "seat" in e && e.seat !== this.app.t.seat && e.kind !== "turn_passed",
            )) ||
          stopsAtCorner(u.events) ||
          this.replayed.has(u);
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
    const t = this.app.t;
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
          ? _("Back at the table: moves made meanwhile are not in the log")
          : _("You came in during the game: the moves before are not in the log");
      if (moved && last?.kind !== "back") t.log.note("back", back);
      // the last take this page saw is not the last one made: no "Last move" or mark of it
      if (moved) t.last = t.move = null;
      this.resumedFrom = null;
    }
    const computer = new Set(
      (this.app.presence?.seats ?? []).filter((s) => s.computer).map((s) => s.seat),
    );
    const { added, took, move } = t.log.add(
      u.events ?? [],
      (ev) =>
        eventWords(
          ev,
          (s) => this.app.who(s),
          this.app.cards!,
          lineOf,
          (s) => this.app.whose(s),
        ),
      computer,
      u.by_computer ?? false,
    );
    for (const e of added) {
      // the person is told which of their seat's moves were the computer's
      if (e.kind === "took" && e.seat === t.seat && t.seat !== null && e.decided === false)
        e.text = _("The computer played for you: {take}", { take: e.text });
    }
    for (const e of added)
      if (e.seat !== t.seat || t.seat === null || e.decided === false) said.push(e.text);
    if (took) t.last = took;
    if (move) t.move = move;
    const ended = before !== null && !before.game_over && u.view.game_over && u.view.result;
    if (ended && !u.events?.some((e) => e.kind === "game_over")) {
      // an ending before the last card (resigned, claimed, time ran out) has no event
      const result = u.view.result!;
      const who = (s: number) => this.app.who(s);
      if (result.ending === "resigned")
        for (const s of result.resigned ?? []) this.noteResigned(s, false);
      t.log.note(
        "over",
        _("The game is over: {how}", {
          how: result.ending === "resigned" ? winnersWords(result, who) : endingWords(result, who),
        }),
      );
    }
    t.log.version = u.state_version;
    this.save();
    const nowMine = this.app.isMyTurn();
    const wasMine = before !== null && before.to_move === t.seat && !before.game_over;
    if (this.app.screen !== "table") this.app.show("table");
    else this.app.renderTableNow();
    if (!before) this.app.firstView(); // lines kept from before a reload: now with their colours
    if (nowMine && (!wasMine || u.re != null))
      said.push(_("Your turn: take a card from {line}", { line: lineWords(u.view.line) }));
    if (said.length) this.app.announce(said.join(". ") + ".");
    if (nowMine && !t.confirm) {
      // (a question being answered, "Resign?", keeps the focus: the turn is announced)
      const a = document.activeElement;
      if (!wasMine || !a || a === document.body || a === this.app.main || a.id === "turn")
        this.app.focusStart();
    }
    if (u.view.game_over && u.view.result)
      this.app.announce(
        `${_("Game over.")} ${document.getElementById("result-words")?.textContent ?? ""}`,
      );
    if (ended) {
      // the end in view, unless the person is typing (a chat line) somewhere
      const a = document.activeElement;
      if (!a || !["INPUT", "TEXTAREA", "SELECT"].includes(a.tagName))
        document.getElementById("end-h")?.focus();
    }
  }

  private casual(): boolean {
    return (this.app.t.view?.options.memory ?? "strict") === "casual";
  }

  visible(): LogEntry[] {
    return this.app.t.log.visible(this.app.t.seat, this.app.t.view?.to_move ?? null, this.casual());
  }

  since(): LogEntry[] {
    return this.app.t.seat === null ? [] : this.app.t.log.since(this.app.t.seat);
  }

  private save(): void {
    const h = this.app.here;
    if (h)
      savedLog.put(
        h.table,
        h.seat,
        this.app.t.log.save(h.seat, this.casual(), this.app.t.view?.players),
      );
  }

  load(table: string, seat: number | null): void {
    this.app.t.log = GameLog.load(savedLog.get(table, seat));
    this.app.t.last = this.app.t.log.lastTook();
    this.app.t.move = this.app.t.log.lastMove();
  }
}
