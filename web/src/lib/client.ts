/**
 * A typed client of the Kupferkessel Co. protocol 1.1 (msgpack over a WebSocket).
 *
 * It does the handshake (`hello` with `combined: true`, so every new state comes as one
 * `update`), numbers client messages, checks that the server's `seq` has no gaps, and
 * pairs answers with their requests by `re`. It keeps no game state: a program reads
 * the messages it is handed (`on`) and decides. Works in browsers and in Node 20+
 * (`--experimental-websocket`, or pass a WebSocket class).
 */
import { decode, encode } from "@msgpack/msgpack";
import {
  PROTOCOL_VERSION,
  SUBPROTOCOL,
  type ClientMessages,
  type ErrorMsg,
  type ServerMessage,
  type ServerMessages,
  type TakeOption,
  type UpdateMsg,
  type WelcomeMsg,
} from "./protocol";

/** The fields of a client message of type `T`, without `type` and `id` (added here). */
export type Fields<T extends keyof ClientMessages> = Omit<ClientMessages[T], "type" | "id">;

/** A refusal from the server (an `error` answering one of our messages). */
export class ProtocolError extends Error {
  readonly code: string;
  readonly detail: string | null;
  readonly re: number | null;
  /** The `error` itself, with the particulars a refusal carries (`field`, `until`, ...). */
  readonly error: ErrorMsg;
  constructor(msg: ErrorMsg) {
    super(`${msg.code}: ${msg.message}`);
    this.name = "ProtocolError";
    this.error = msg;
    this.code = msg.code;
    this.detail = msg.detail ?? null;
    this.re = msg.re ?? null;
  }
}

/** The connection ended (`bye`'s reason when there was one, else the close code). */
export class ConnectionClosed extends Error {
  readonly code: number;
  readonly reason: string;
  constructor(code: number, reason: string) {
    super(`connection closed (${code}${reason ? `: ${reason}` : ""})`);
    this.name = "ConnectionClosed";
    this.code = code;
    this.reason = reason;
  }
}

export interface ConnectOptions {
  /** The client program's name sent in `hello` (1..32 characters). */
  client?: string;
  clientVersion?: string;
  /** A WebSocket class (defaults to the global one). */
  WebSocket?: typeof WebSocket;
  /** Milliseconds to wait for the connection and `welcome` (default 10 000). */
  timeout?: number;
}

type Handler<M> = (msg: M) => void;
type Pending = { resolve: (m: ServerMessage) => void; reject: (e: Error) => void };

/** Messages larger than this are refused by the server (`limits.max_frame`). */
const DEFAULT_MAX_FRAME = 16384;

export class KupferkesselClient {
  /** The server's `welcome`: its limits, bot levels and the card catalogue. */
  welcome!: WelcomeMsg;
  /** The last `seq` received. */
  seq = 0;
  /** When the last message was sent (`Date.now()`): send `ping` before the server's
   * `limits.idle_timeout` passes without one. */
  lastSent = 0;
  /** When the last message came from the server (`Date.now()`): a connection that
   * stays silent after a `ping` is dead (`abandon`). */
  lastReceived = 0;
  closed = false;
  closeError: ConnectionClosed | null = null;
  private nextId = 1;
  private readonly ws: WebSocket;
  private readonly handlers = new Map<string, Set<Handler<never>>>();
  private readonly pending = new Map<number, Pending>();
  private readonly closeHandlers = new Set<(e: ConnectionClosed) => void>();
  private bye: string | null = null;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.binaryType = "arraybuffer";
    ws.addEventListener("message", (ev) => this.receive(ev.data));
    ws.addEventListener("close", (ev) => this.ended(ev.code, ev.reason));
  }

  /** Open a connection to `url` (`ws://host:port/`) and shake hands in protocol 1.1. */
  static connect(url: string, options: ConnectOptions = {}): Promise<KupferkesselClient> {
    const WS = options.WebSocket ?? globalThis.WebSocket;
    const ws = new WS(url, SUBPROTOCOL);
    const client = new KupferkesselClient(ws);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error("no welcome from the server in time"));
        ws.close();
      }, options.timeout ?? 10000);
      const fail = (e: ConnectionClosed) => {
        clearTimeout(timer);
        reject(e);
      };
      client.closeHandlers.add(fail);
      ws.addEventListener("open", () => {
        client
          .request("hello", {
            protocol: PROTOCOL_VERSION,
            client: options.client ?? "kupferkessel-js",
            client_version: options.clientVersion ?? "",
            combined: true,
          })
          .then((welcome) => {
            clearTimeout(timer);
            client.closeHandlers.delete(fail);
            if (welcome.type !== "welcome")
              throw new Error(`expected welcome, got ${welcome.type}`);
            client.welcome = welcome;
            resolve(client);
          })
          .catch((e: Error) => {
            clearTimeout(timer);
            reject(e);
            ws.close();
          });
      });
    });
  }

  /** Call `handler` for every server message of `type` (`"*"`: every message). Returns
   * a function that removes it. */
  on<T extends keyof ServerMessages>(type: T, handler: Handler<ServerMessages[T]>): () => void;
  on(type: "*", handler: Handler<ServerMessage>): () => void;
  on(type: string, handler: Handler<never>): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler);
    return () => set!.delete(handler);
  }

  /** Call `handler` once the connection has ended, for whatever reason. */
  onClose(handler: (e: ConnectionClosed) => void): () => void {
    this.closeHandlers.add(handler);
    return () => this.closeHandlers.delete(handler);
  }

  /** Send a client message; returns its `id`. */
  send<T extends keyof ClientMessages>(type: T, fields: Fields<T>): number {
    if (this.closed) throw this.closeError ?? new ConnectionClosed(1006, "");
    const id = this.nextId++;
    const bytes = encode({ type, id, ...fields }, { ignoreUndefined: true });
    const max = this.welcome?.limits.max_frame ?? DEFAULT_MAX_FRAME;
    if (bytes.byteLength > max)
      throw new Error(`${type} is ${bytes.byteLength} bytes, over ${max}`);
    this.ws.send(bytes);
    this.lastSent = Date.now();
    return id;
  }

  /** Send a message and wait for the first answer (`re` = its id); an `error` rejects
   * with a `ProtocolError`. For `create_table` with a player the answer is
   * `table_created`; the `joined` that follows reaches the `on` handlers. */
  request<T extends keyof ClientMessages>(type: T, fields: Fields<T>): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      try {
        const id = this.send(type, fields);
        this.pending.set(id, { resolve, reject });
      } catch (e) {
        reject(e as Error);
      }
    });
  }

  /** Send a message that has no answer when it succeeds (`ready`, `chat`, `rematch`)
   * followed by a `ping`: resolves at the `pong`, rejects if the message was refused. */
  command<T extends "ready" | "chat" | "rematch">(type: T, fields: Fields<T>): Promise<void> {
    return new Promise((resolve, reject) => {
      try {
        const id = this.send(type, fields);
        this.pending.set(id, { resolve: () => undefined, reject });
        this.request("ping", {}).then(() => {
          if (this.pending.delete(id)) resolve();
        }, reject);
      } catch (e) {
        reject(e as Error);
      }
    });
  }

  /** Make one of `view.takes` on the view of `stateVersion`; resolves with the `update`
   * that answers it. */
  async take(stateVersion: number, option: TakeOption): Promise<UpdateMsg> {
    const answer = await this.request("take", { ...option, state_version: stateVersion });
    if (answer.type !== "update") throw new Error(`expected update, got ${answer.type}`);
    return answer;
  }

  /** Close the connection (no message needed). */
  close(): void {
    this.ws.close(1000);
  }

  /** Give the connection up at once, as closed abnormally (1006), without waiting for
   * the server's answer to the close: for a connection that stopped answering. A
   * network gone dead sends no close, so the socket's own would come late or never;
   * the socket is closed in the background, and what waited on it is rejected now. */
  abandon(): void {
    if (this.closed) return;
    this.ws.close(1000);
    this.ended(1006, "");
  }

  private receive(data: unknown): void {
    if (this.closed) return; // given up (`abandon`): what still comes is not heard
    this.lastReceived = Date.now();
    if (!(data instanceof ArrayBuffer)) return; // the server sends binary frames only
    let msg: ServerMessage;
    try {
      msg = decode(new Uint8Array(data)) as ServerMessage;
    } catch {
      this.ws.close(1002, "undecodable frame");
      return;
    }
    if (typeof msg !== "object" || msg === null || typeof msg.type !== "string") return;
    const seq = msg.seq ?? 0;
    if (seq !== this.seq + 1) {
      this.ws.close(1002, `seq ${seq} after ${this.seq}`);
      return;
    }
    this.seq = seq;
    if (msg.type === "bye") this.bye = msg.reason;
    for (const key of [msg.type, "*"]) {
      for (const h of this.handlers.get(key) ?? []) {
        try {
          (h as Handler<ServerMessage>)(msg);
        } catch (e) {
          console.error(e);
        }
      }
    }
    const re = msg.re;
    if (re !== undefined && re !== null) {
      const p = this.pending.get(re);
      if (p) {
        this.pending.delete(re);
        if (msg.type === "error") p.reject(new ProtocolError(msg));
        else p.resolve(msg);
      }
    }
  }

  private ended(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    const e = new ConnectionClosed(code, this.bye ?? reason);
    this.closeError = e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    for (const h of [...this.closeHandlers]) h(e);
  }
}
