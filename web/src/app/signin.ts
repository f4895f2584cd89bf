/**
 * Protocol 1.2's signing in, on every connection: the player kept for this server, the
 * seats it holds. The page needs this at once; the players' screens themselves
 * (`players.ts`) are loaded when first opened, so the first load stays small.
 */
import { ProtocolError } from "../lib/index";
import type { PlayerInfo, PlayerSeat, ServerMessage, SignedInMsg } from "../lib/protocol";
import type { PlayersHost } from "./host";
import { _ } from "./i18n";
import { account, prefs } from "./store";
import { refusalOf } from "./refusals";

export const PLAYERS_SCREENS: readonly string[] = ["account", "profile", "board", "replay"];

/** Who this connection signed in as, and the seats that player holds. */
const signed = {
  me: null as PlayerInfo | null,
  seats: [] as PlayerSeat[],
};

/** The signed-in player of this connection, if any. */
export const me = (): PlayerInfo | null => signed.me;

const speaks = (app: Pick<PlayersHost, "client">, minor: number): boolean => {
  const v = app.client?.welcome.protocol;
  return !!v && (v[0] > 1 || (v[0] === 1 && v[1] >= minor));
};

/** Whether this connection speaks 1.2 (the server's `welcome` said so). */
export const speaksPlayers = (app: PlayersHost): boolean => speaks(app, 2);

/** Whether this connection speaks 1.3, which lists and revokes your devices. */
export const speaksDevices = (app: PlayersHost): boolean => speaks(app, 3);

/** Whether this connection speaks 1.5: a finished game's analysis, and hints. */
export const speaksAnalysis = (app: Pick<PlayersHost, "client">): boolean => speaks(app, 5);

/** The seat this browser's player holds at `table` (it signed in holding it). */
export function playerSeat(table: string): number | null {
  return signed.seats.find((s) => s.table === table)?.seat ?? null;
}

/** `signed_in`: the player and its seats, kept and said in the header. */
export function signedIn(app: PlayersHost, msg: ServerMessage): PlayerInfo {
  if (msg.type !== "signed_in") throw new Error(`expected signed_in, got ${msg.type}`);
  const s = msg as SignedInMsg;
  signed.me = s.player;
  signed.seats = s.seats ?? [];
  prefs.setName(s.player.name);
  app.setPlayer(s.player);
  return s.player;
}

/** On every connection: sign in as the player kept for this server, if any. */
export async function signIn(app: PlayersHost): Promise<void> {
  signed.me = null;
  signed.seats = [];
  app.setPlayer(null);
  const kept = account.get();
  const c = app.client;
  if (!kept || !c || !speaksPlayers(app)) return;
  try {
    signedIn(app, await c.request("sign_in", { name: kept.name, secret: kept.secret }));
  } catch (e) {
    app.say(
      e instanceof ProtocolError
        ? _("Could not sign in as {name}: {why}", {
            name: kept.name,
            why: refusalOf(e),
          })
        : "",
    );
  }
}
