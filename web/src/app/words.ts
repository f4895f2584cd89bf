/** Everything the page says in words: cards, seats, options, events, endings. Colour is
 * never the only mark: every card and seat carries its colour word, as in the terminal
 * client (the same words and two-letter tags). */
import type {
  CardInfo,
  Catalogue,
  GameEvent,
  RecipeInfo,
  ResultInfo,
  SeatInfo,
  TableOptions,
  Timing,
} from "../lib/protocol";
import { _, colour as colourWord, ingredient, list, ngettext, pgettext } from "./i18n";

/** A pawn's tag: its colour's two letters (`Wh`), from the card data. */
export const pawnTag = (colour: string): string => cap(colourWord(colour, true));
/** A card's symbol in a word. */
export const symbolWord = (sym: string): string =>
  sym === "explode" ? _("boom") : sym === "wand" ? _("wand") : sym;
/** A card's symbol as its cell on the grid says it (a short word). */
export const symbolMark = (sym: string): string =>
  sym === "explode"
    ? pgettext("at most 7 letters", "boom")
    : sym === "wand"
      ? pgettext("at most 7 letters", "wand")
      : sym;

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** `White`: a colour's word as a seat's name. */
export const colourName = (c: string): string => cap(colourWord(c));

export class Cards {
  private readonly byId = new Map<string, CardInfo>();
  private readonly recipes = new Map<string, RecipeInfo>();
  constructor(readonly catalogue: Catalogue) {
    for (const c of catalogue.cards) this.byId.set(c.id, c);
    for (const r of catalogue.recipes) this.recipes.set(r.id, r);
  }
  info(id: string): CardInfo | undefined {
    return this.byId.get(id);
  }
  ingredientName(key: string, short = false): string {
    return ingredient(key, short) ?? cap(key.replace(/_/g, " "));
  }
  name(id: string, short = false): string {
    const info = this.byId.get(id);
    return info ? this.ingredientName(info.ingredient, short) : id;
  }
  colour(id: string): string {
    return this.byId.get(id)?.colour ?? "gray";
  }
  value(id: string): number {
    return this.byId.get(id)?.value ?? Number(id.split("-").pop());
  }
  symbol(id: string): string | null {
    return this.byId.get(id)?.symbol ?? null;
  }
  /** `Toad 2 boom (brown)`: a card in words with its colour. */
  words(id: string): string {
    const info = this.byId.get(id);
    if (!info) return id;
    const fields = { name: this.name(id), value: info.value, colour: colourWord(info.colour) };
    return info.symbol
      ? _("{name} {value} {symbol} ({colour})", { ...fields, symbol: symbolWord(info.symbol) })
      : _("{name} {value} ({colour})", fields);
  }
  /** A recipe card in a few words, e.g. `3+ of both gray (+15)`. */
  recipe(id: string): string {
    const r = this.recipes.get(id);
    if (!r) return id;
    const colour = colourWord(r.colour ?? "");
    const fewer = () =>
      ({
        explode: _("fewest boom cards"),
        wand: _("fewest wand cards"),
        cards: _("fewest cards"),
        fours: _("fewest 4s"),
      })[r.measure ?? ""] ?? _("fewest {what}", { what: r.measure ?? "" });
    const what =
      {
        both_of_colour: () => _("3+ of both {colour}", { colour }),
        one_of_colour: () => _("3+ of one {colour}", { colour }),
        last_card: () => _("take the last card"),
        plants: () => _("most plants"),
      }[r.kind] ?? fewer;
    return _("{what} (+{bonus})", { what: what(), bonus: r.bonus });
  }
}

/** A computer player's level in a word (a level newer than this page: as the server
 * names it). */
export const levelWord = (level: string): string =>
  ({
    beginner: _("beginner"),
    easy: _("easy"),
    medium: _("medium"),
    hard: _("hard"),
    expert: _("expert"),
  })[level] ?? level;

/** A server's computer player by its level: `beginner bot`. */
export const botName = (level: string): string => _("{level} bot", { level: levelWord(level) });

/** A name as given, but a server's computer player's (`<level> bot`, as a record or a
 * list keeps it) in the language spoken. */
export function nameWords(name: string): string {
  const m = /^(beginner|easy|medium|hard|expert) bot$/.exec(name);
  return m ? botName(m[1]) : name;
}

/** `White (Ann)`: a seat by colour and name. */
export function seatLabel(
  colours: readonly string[],
  seat: number,
  names: readonly (string | null | undefined)[],
): string {
  const colour = colours[seat] ? colourName(colours[seat]) : _("Seat {n}", { n: seat + 1 });
  const name = names[seat];
  return name ? _("{colour} ({name})", { colour, name: nameWords(name) }) : colour;
}

/** A seat's name as shown: `Hanna (registered)` when a registered player sits there
 * (1.2), so that someone who merely typed the name Hanna is told apart. */
export function seatName(info: SeatInfo | undefined): string {
  if (!info || !info.name) return _("free");
  if (info.bot) return botName(info.bot);
  return info.registered ? _("{name} (registered)", { name: info.name }) : info.name;
}

/** A seat's presence in a word, as the terminal client says it. */
export function seatStatus(info: SeatInfo | undefined): string {
  if (!info || !info.name) return _("free");
  if (info.resigned) return info.computer ? _("resigned, a computer plays") : _("resigned");
  if (info.bot) return _("bot");
  if (info.absent || (info.computer && !info.connected)) return _("away, a computer plays");
  if (info.computer) return _("online, a computer plays");
  return info.connected ? _("online") : _("away");
}

/** `3 players, recipes, casual memory, 30 s a move, hints on, private`. */
export function terms(
  options: TableOptions,
  timing: Timing | null | undefined,
  priv: boolean,
): string {
  const players = options.players ?? 2;
  const t = [ngettext("{n} player", "{n} players", players)];
  if (options.recipes) t.push(_("recipes"));
  t.push(options.memory === "casual" ? _("casual memory") : _("strict memory"));
  if ((options.start_card ?? "no_player_colors") !== "no_player_colors")
    t.push(_("start card: not own colour"));
  if (players === 3)
    t.push(_("third colour {colour}", { colour: colourWord(options.third_colour ?? "lilac") }));
  if (timing?.move) {
    t.push(_("{n} s a move", { n: timing.move }));
    if (timing.reserve) t.push(_("{n} s reserve", { n: timing.reserve }));
  }
  if (options.hints) t.push(_("hints on"));
  if (priv) t.push(_("private"));
  return t.join(", ");
}

export function lineWords(line: string | null | undefined): string {
  if (!line) return _("a corner");
  const n = line.slice(3);
  return line.startsWith("col") ? _("column {n}", { n }) : _("row {n}", { n });
}

/** One event in words (null for those the log leaves out); `whose` says a seat's
 * kettle ("Bo's", "your"). */
export function eventWords(
  ev: GameEvent,
  who: (seat: number) => string,
  cards: Cards,
  lineOfSpace: (s: number) => string | null,
  whose: (seat: number) => string = (s) => possessive(who(s)),
): string | null {
  switch (ev.kind) {
    case "moved": {
      const steps = ((ev.to_space - ev.from_space + 20) % 20) - ev.skipped.length;
      const fields = { who: who(ev.seat), n: steps, line: lineWords(lineOfSpace(ev.to_space)) };
      if (!ev.skipped.length) return _("{who} moves {n} to {line}", fields);
      return ev.skipped.length === 1
        ? _("{who} moves {n} to {line}, jumping a pawn", fields)
        : _("{who} moves {n} to {line}, jumping two pawns", fields);
    }
    case "passed_corner":
      return _("{who} stops at a corner: nothing taken, the turn is lost", { who: who(ev.seat) });
    case "took": {
      const sym = cards.symbol(ev.card);
      const fields = { who: who(ev.seat), card: cards.words(ev.card), line: lineWords(ev.line) };
      const took =
        ev.special && sym === "explode"
          ? _("{who} takes {card} from {line}, explodes", fields)
          : ev.special && sym
            ? _("{who} takes {card} from {line}, uses the wand", fields)
            : _("{who} takes {card} from {line}", fields);
      return ev.ends_game ? _("{take} (the last card)", { take: took }) : took;
    }
    case "exploded": {
      const fields = {
        whose: cap(whose(ev.seat)),
        card: cards.words(ev.card),
        target: whose(ev.target),
      };
      return ev.to === "deck"
        ? _("{whose} boom: {card} leaves {target} kettle, under the deck", fields)
        : _("{whose} boom: {card} leaves {target} kettle, out of the game", fields);
    }
    case "extra_turn":
      return _("{who} plays again (wand)", { who: who(ev.seat) });
    case "refilled":
      return _("{card} fills row {row}, column {col}", {
        card: cards.words(ev.card),
        row: ev.row,
        col: ev.col,
      });
    case "discarded":
      return _("{who} discards {card}", { who: who(ev.seat), card: cards.words(ev.card) });
    case "turn_passed":
      return null;
    case "game_over":
      return _("The game is over");
    case "timed_out":
      return _("Time ran out for {who}: a computer moved", { who: who(ev.seat) });
    default:
      return null;
  }
}

/** `Bo's`: whose kettle or boom, by a seat's name. */
export const possessive = (name: string): string => pgettext("possessive", "{name}'s", { name });

const seatList = (seats: readonly number[], who: (seat: number) => string): string =>
  list(seats.map(who)) || _("a player");

/** Who won, in a sentence: `Black (Cleo) wins.` */
export function winnersWords(result: ResultInfo, who: (seat: number) => string): string {
  const n = result.winners.length;
  const winners = seatList(result.winners, who);
  return n
    ? n > 1
      ? _("{who} share the win.", { who: winners })
      : _("{who} wins.", { who: winners })
    : _("Nobody wins.");
}

/** How a game ended, in a sentence. */
export function endingWords(result: ResultInfo, who: (seat: number) => string): string {
  const seats = (s: readonly number[]) => seatList(s, who);
  const winners = winnersWords(result, who);
  const said: Record<string, () => string> = {
    played_out: () => _("The game was played out."),
    resigned: () => _("{who} resigned.", { who: seats(result.resigned ?? []) }),
    claimed: () =>
      _("{who} claimed the win while the opponent was away.", {
        who: result.claimed_by != null ? who(result.claimed_by) : _("A player"),
      }),
    timed_out: () =>
      _("Time ran out for {who} move after move.", { who: seats(result.timed_out ?? []) }),
    abandoned: () => _("Nobody was left at the table: the game was abandoned."),
  };
  return `${said[result.ending]?.() ?? ""} ${winners}`;
}
