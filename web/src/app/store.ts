/** What the page keeps in the browser's storage: seat tokens (per server, table and
 * seat), where this tab was (to resume after a reload), the player's name, the pace of
 * other seats' moves, the log the memory rule allows and the table's last chat lines
 * (a seat's and a spectator's alike). A token is a secret: it never goes into a URL or the page. */

import type { TableSummary } from "../lib/protocol";

const host = (): string => location.host;
const get = (k: string): string | null => {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
};
const set = (k: string, v: string | null): void => {
  try {
    if (v === null) localStorage.removeItem(k);
    else localStorage.setItem(k, v);
  } catch {
    /* storage full or disabled: the seat lasts as long as the page */
  }
};

const tokenKey = (table: string, seat: number) => `kk:token:${host()}:${table}:${seat}`;

export const tokens = {
  get: (table: string, seat: number) => get(tokenKey(table, seat)),
  put: (table: string, seat: number, token: string) => set(tokenKey(table, seat), token),
  forget: (table: string, seat: number) => {
    set(tokenKey(table, seat), null);
    savedLog.forget(table, seat);
    savedChat.forget(table, seat);
  },
  /** The seats of `table` this browser holds a token for. */
  seatsAt(table: string): number[] {
    const out: number[] = [];
    for (let s = 0; s < 3; s++) if (get(tokenKey(table, s))) out.push(s);
    return out;
  },
};

export interface Here {
  table: string;
  seat: number | null;
  invite?: string | null;
  /** The table's listing when the page knew it (its name, options and timing, which do
   * not change): the waiting screen says them again after a reload. */
  summary?: TableSummary | null;
}

export const here = {
  get(): Here | null {
    const raw = get(`kk:here:${host()}`);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as Here;
    } catch {
      return null;
    }
  },
  put: (h: Here | null) => set(`kk:here:${host()}`, h ? JSON.stringify(h) : null),
};

/** The key of the pace setting (`pace.ts`), for every server alike: another tab that
 * changes it hears of it through the `storage` event. */
export const PACE_KEY = "kk:pace";

export const prefs = {
  name: () => get("kk:name") ?? "",
  setName: (n: string) => set("kk:name", n),
  pace: () => get(PACE_KEY),
  setPace: (p: string) => set(PACE_KEY, p),
};

const logKey = (table: string, seat: number | null) =>
  `kk:log:${host()}:${table}:${seat ?? "watching"}`;

/** The log the memory rule lets a seat (or a spectator: null) see, kept across a reload. */
export const savedLog = {
  get(table: string, seat: number | null): unknown {
    const raw = get(logKey(table, seat));
    try {
      return raw ? JSON.parse(raw) : null;
    } catch {
      return null;
    }
  },
  put: (table: string, seat: number | null, value: unknown) =>
    set(logKey(table, seat), JSON.stringify(value)),
  forget: (table: string, seat: number | null) => set(logKey(table, seat), null),
};

/** 1.2: this browser's registered player on this server: its name and the secret made
 * here (or given by the server for this device). Like a seat token, but for good: it is
 * sent only in `sign_in`, to this server, and never shown. */
export interface Account {
  name: string;
  secret: string;
}

export const account = {
  get(): Account | null {
    const raw = get(`kk:player:${host()}`);
    try {
      const a = raw ? (JSON.parse(raw) as Account) : null;
      return a && typeof a.name === "string" && typeof a.secret === "string" ? a : null;
    } catch {
      return null;
    }
  },
  put: (a: Account | null) => set(`kk:player:${host()}`, a ? JSON.stringify(a) : null),
};

/** The last chat lines a page kept: the server sends none of the lines before a
 * reload, to a seat or a spectator. */
export const CHAT_KEEP = 100;

export interface KeptChat {
  seat?: number | null;
  name: string;
  text: string;
}

const chatKey = (table: string, seat: number | null) =>
  `kk:chat:${host()}:${table}:${seat ?? "watching"}`;

export const savedChat = {
  /** The lines kept for `seat` at `table` (null: watching), the last `CHAT_KEEP`. */
  get(table: string, seat: number | null): KeptChat[] {
    try {
      const lines: unknown = JSON.parse(get(chatKey(table, seat)) ?? "[]");
      if (!Array.isArray(lines)) return [];
      return lines
        .filter(
          (l): l is KeptChat => !!l && typeof l.name === "string" && typeof l.text === "string",
        )
        .map((l) => ({
          seat: typeof l.seat === "number" ? l.seat : null,
          name: l.name,
          text: l.text,
        }))
        .slice(-CHAT_KEEP);
    } catch {
      return [];
    }
  },
  put: (table: string, seat: number | null, lines: readonly KeptChat[]) =>
    set(
      chatKey(table, seat),
      JSON.stringify(
        lines.slice(-CHAT_KEEP).map((l) => ({ seat: l.seat ?? null, name: l.name, text: l.text })),
      ),
    ),
  forget: (table: string, seat: number | null) => set(chatKey(table, seat), null),
};
