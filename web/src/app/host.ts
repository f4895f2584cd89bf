/**
 * What a screen may ask of the application that shows it: the small interfaces the
 * lobby, the form of a new table, the table screen, the players' screens and the invite
 * links are handed.
 *
 * A screen never imports the application that owns it (`main.ts`): that would be an
 * import cycle and a reach up to its owner. It is given an object with these few members
 * instead, and the application (`App`) is that object. The table screen's state lives
 * here too, so that the application and the table screen share it without importing
 * each other.
 */
import type { KupferkesselClient } from "../lib/index";
import type {
  GameView,
  PlayerInfo,
  PresenceMsg,
  ServerMessage,
  TableSummary,
  TakeOption,
} from "../lib/protocol";
import { GameLog, type LogEntry } from "./log";
import type { Here } from "./store";
import type { Cards } from "./words";

/** The players' screens (1.2): `players.ts` draws them. */
export type PlayersScreen = "account" | "profile" | "board" | "replay";

/** Every screen the page shows in its main part. */
export type Screen = "lobby" | "create" | "join" | "waiting" | "table" | PlayersScreen;

/** What the table screen holds between two drawings. */
export interface TableState {
  seat: number | null;
  view: GameView | null;
  version: number;
  viewAt: number;
  pending: boolean;
  selected: string | null;
  log: GameLog;
  /** The last take this page saw (its cell is marked on the grid). */
  last: LogEntry | null;
  /** The last move this page saw, as the line under the grid says it: that take, or a
   * corner stop after it. */
  move: LogEntry | null;
  /** The action asked about before it is done ("Resign?", "Claim the win?"). */
  confirm: "resign" | "claim" | null;
  /** The *Invite* control is open (kept across redraws, which rebuild it). */
  inviteOpen: boolean;
}

/** A seat's action at the table that the server answers. */
export type TableAction = "resign" | "claim" | "back" | "leave";

/** What the status line offers. */
export interface Says {
  /** A line in the status bar (`info`: news that goes by itself; "" clears it). */
  say(text: string, info?: boolean): void;
}

/** What the connection asks (`connection.ts`). */
export interface ConnectionHost extends Says {
  /** The page's main part (the notice that the seat is played elsewhere). */
  readonly main: HTMLElement;
  /** A connection was opened (again): go back to where the page was. */
  opened(client: KupferkesselClient): Promise<void>;
  /** A message of the server. */
  heard(msg: ServerMessage): void;
  /** The connection was lost (another is tried): nothing can be taken until it is back. */
  lost(): void;
}

/** What "one seat, one tab" asks (`tabs.ts`). */
export interface TabsHost {
  /** The table and seat this tab is at. */
  readonly here: Here | null;
  /** Another tab of this browser took this tab's seat up: let it go, and say so. */
  takenByTab(): void;
  /** This tab took the seat up from another tab of this browser: say so. */
  tookFromTab(): void;
}

/** What the invite links ask (`invite.ts`): the table this page is at. */
export interface InviteHost extends Says {
  /** The table, seat and invite code this page is at (null: none). */
  readonly here: Here | null;
  /** The listing of that table (its name, whether it is private), if known. */
  readonly summary: TableSummary | null;
}

/** What every screen that draws into the main part asks. */
export interface ScreenHost extends Says {
  /** The connection in use (null: none at the moment). */
  readonly client: KupferkesselClient | null;
  /** The page's main part, where a screen draws. */
  readonly main: HTMLElement;
  /** The card catalogue of the server (null: not connected yet). */
  readonly cards: Cards | null;
  /** Show `screen` (drawn at once). */
  show(screen: Screen): void;
  /** A refusal in a plain sentence (`seat`: the seat asked for, in the page's words). */
  refused(e: unknown, seat?: string | null): void;
}

/** What the players' screens ask (`players.ts`). */
export interface PlayersHost extends ScreenHost {
  /** The screen on show. */
  readonly screen: Screen;
  /** Signed in as `p` (null: anonymous); the header says so. */
  setPlayer(p: PlayerInfo | null): void;
}

/** The table's chat box: one and the same element in every drawing. */
export interface ChatHost {
  readonly chatBox: HTMLElement;
}

/** What the chat box asks (`chat.ts`): the connection to say a line on, the game's
 * colours to name its speakers by. */
export interface ChatBoxHost {
  readonly client: KupferkesselClient | null;
  readonly t: TableState;
  refused(e: unknown): void;
}

/** What the form of a new table asks (`create.ts`). */
export interface CreateHost extends ScreenHost {
  /** Ready to play as soon as seated (the waiting screen's choice). */
  wantReady: boolean;
  /** The lobby's page of tables (a new table refused by one of yours: the way back). */
  readonly tables: TableSummary[];
  /** Back at the table this tab was at: resume the seat, or watch again. */
  rejoin(h: Here): Promise<void>;
}

/** What the page's address asks (`links.ts`): an invite or watch link to follow. */
export interface LinksHost extends ScreenHost {
  readonly screen: Screen;
  readonly here: Here | null;
  /** The table an invite or watch link names, and its listing if the server lists it. */
  prefill: { table: string; invite: string; watch: boolean; known?: TableSummary | null } | null;
}

/** What the lobby, the join form and the waiting screen ask (`lobby.ts`). */
export interface LobbyHost extends PlayersHost, CreateHost, InviteHost, ChatHost {
  readonly t: TableState;
  readonly presence: PresenceMsg | null;
  /** The listing of the table this page is at or about to join. */
  summary: TableSummary | null;
  /** The invite code of the table this page creates or joins. */
  readonly invite: string | null;
  /** The number of the lobby's tables, and the cursors to page through them. */
  readonly tablesTotal: number;
  cursor: string | null;
  readonly nextCursor: string | null;
  /** The table an invite or watch link names, and its listing if the server lists it. */
  prefill: { table: string; invite: string; watch: boolean; known?: TableSummary | null } | null;
  /** Ask the server for the lobby's page of tables. */
  listTables(): void;
  join(table: string, invite: string | null, seat: number | null, seeded?: boolean): void;
  watch(table: string, invite: string | null): void;
  ready(on: boolean): void;
  act(type: TableAction): void;
}

/** What every part of the table screen reads: its state, who sits where, whose turn. */
export interface TableReads {
  readonly t: TableState;
  readonly presence: PresenceMsg | null;
  /** The page's main part, where the table is drawn. */
  readonly main: HTMLElement;
  isMyTurn(): boolean;
  /** `White (Ann)`, with `you` for this browser's seat. */
  who(seat: number): string;
}

/** What the grid and the question ask (`board.ts`, `question.ts`): choose a card, take
 * it, answer a question of the seat. */
export interface TurnHost extends TableReads {
  /** The connection in use (null: none at the moment): it asks for a hint. */
  readonly client: KupferkesselClient | null;
  /** Draw the table screen again (a question asked, a card chosen). */
  renderTableNow(): void;
  /** Keyboard focus to the turn banner, unless the person is typing somewhere. */
  focusTurn(): void;
  take(option: TakeOption): Promise<void>;
  act(type: TableAction): void;
}

/** What the seat's own buttons ask (`actions.ts`): those of a turn, and the links. */
export interface ActionsHost extends TurnHost, InviteHost {}

/** What the players and the log ask (`panels.ts`). */
export interface PanelsHost extends TableReads {
  /** A seat's clock in words (`1:30 left, running`). */
  clockText(seat: number): string;
  /** The log by the memory rule, and the moves since this seat's last decision. */
  visibleLog(): LogEntry[];
  sinceLastDecision(): LogEntry[];
}

/** What the game's end asks (`ending.ts`). */
export interface EndingHost extends TableReads, PlayersHost {
  rematch(on: boolean): void;
  /** The table this page is at: its finished game's replay opens from the end. */
  readonly here: Here | null;
}

/** What the table screen asks (`table.ts`): each of its parts' interfaces. */
export interface TableHost extends ActionsHost, PanelsHost, EndingHost, ChatHost {
  readonly cards: Cards | null;
}

/** What the update pump asks (`updates.ts`): the table's state to change, and the
 * screen, the announcer and the focus to show each update with. */
export interface UpdatesHost extends TableReads {
  /** The connection in use (null: none at the moment): it asks for moves missed. */
  readonly client: KupferkesselClient | null;
  readonly cards: Cards | null;
  readonly screen: Screen;
  /** The table and seat this page is at (its log is kept per table and seat). */
  readonly here: Here | null;
  show(screen: Screen): void;
  renderTableNow(): void;
  /** Read `text` out to a screen reader. */
  announce(text: string): void;
  /** Keyboard focus to a card to take (this seat's turn has come). */
  focusStart(): void;
  /** `Bo's`, `your`: whose kettle or boom. */
  whose(seat: number): string;
  /** The game's first view came: what was drawn before it (the chat) is drawn again. */
  firstView(): void;
}

/** The table screen's state before a table's first view. */
export function freshTable(): TableState {
  return {
    seat: null,
    view: null,
    version: 0,
    viewAt: 0,
    pending: false,
    selected: null,
    log: new GameLog(),
    last: null,
    move: null,
    confirm: null,
    inviteOpen: false,
  };
}
