/**
 * The seat's own buttons on the table screen: resign and claim the win (each asked
 * first), take the seat back from the computer, leave or go back to the lobby, and the
 * links to invite people to watch.
 */
import type { GameView, SeatInfo } from "../lib/protocol";
import { h } from "./dom";
import { _ } from "./i18n";
import type { ActionsHost, TurnHost } from "./host";
import { linkLines } from "./invite";

export function actions(app: ActionsHost, v: GameView, seats: SeatInfo[]): HTMLElement {
  const t = app.t;
  const out: HTMLElement[] = [];
  const me = t.seat !== null ? seats[t.seat] : undefined;
  if (!v.game_over && t.seat !== null && !me?.resigned) {
    if (t.confirm === "resign") {
      const what =
        v.players === 2
          ? _("Resign? The other player wins at once.")
          : _("Resign? A computer plays your seat to the end and you place last.");
      out.push(
        h("p", { id: "resign-q" }, what),
        h(
          "button",
          { class: "danger", "data-key": "resign-yes", onclick: () => answer(app, "resign") },
          _("Yes, resign"),
        ),
        h(
          "button",
          { "data-key": "resign-no", onclick: () => answer(app, null, "resign") },
          _("No, play on"),
        ),
      );
    } else
      out.push(
        h("button", { "data-key": "resign", onclick: () => ask(app, "resign") }, _("Resign")),
      );
    const other = seats.find((s) => s.seat !== t.seat);
    if (v.players === 2 && other?.absent) {
      if (t.confirm === "claim") {
        out.push(
          h("p", { id: "claim-q" }, _("Claim the win? The game ends at once and you win it.")),
          h(
            "button",
            { class: "danger", "data-key": "claim-yes", onclick: () => answer(app, "claim") },
            _("Yes, claim the win"),
          ),
          h(
            "button",
            { "data-key": "claim-no", onclick: () => answer(app, null, "claim") },
            _("No, wait for them"),
          ),
        );
      } else
        out.push(
          h(
            "button",
            { "data-key": "claim", onclick: () => ask(app, "claim") },
            _("Claim the win (opponent away)"),
          ),
        );
    } else if (t.confirm === "claim") t.confirm = null; // back in time: nothing to claim

    if (me?.computer && me.connected)
      out.push(
        h(
          "button",
          { class: "primary", "data-key": "back", onclick: () => answer(app, "back") },
          _("Take my seat back from the computer"),
        ),
      );
  }
  if (v.game_over || t.seat === null || me?.resigned)
    out.push(
      h(
        "button",
        { "data-key": "to-lobby", onclick: () => app.act("leave") },
        t.seat === null ? _("Stop watching") : _("Back to the lobby"),
      ),
    );
  else
    out.push(
      h(
        "button",
        { "data-key": "leave", onclick: () => app.act("leave") },
        _("Leave (my seat waits for me)"),
      ),
    );
  const share = invite(app);
  if (share) out.push(share);
  out.push(h("a", { href: "#/help", class: "help-link" }, _("How to play")));
  return h(
    "section",
    { class: "actions", "data-key": "actions", "aria-label": _("Table actions") },
    out,
  );
}

/** The waiting screen's links, folded into a small *Invite* control so that a game
 * under way can still bring people to watch: a seat gets the invite link (which, the
 * seats taken, offers to watch) and the watch link; a spectator the watch link only. */
function invite(app: ActionsHost): HTMLElement | null {
  const lines = linkLines(app, app.t.seat !== null);
  if (!lines.length) return null;
  const toggle = (e: Event) => {
    app.t.inviteOpen = (e.currentTarget as HTMLDetailsElement).open;
  };
  return h(
    "details",
    { class: "invite", "data-key": "invite", open: app.t.inviteOpen, ontoggle: toggle },
    h("summary", { "data-key": "invite-summary" }, _("Invite to watch")),
    h("div", { class: "invite-panel" }, lines),
  );
}

/** Ask before resigning or claiming: the question's "no" gets the focus. */
function ask(app: ActionsHost, what: "resign" | "claim"): void {
  app.t.confirm = what;
  app.renderTableNow();
  app.main.querySelector<HTMLElement>(`[data-key="${what}-no"]`)?.focus();
}

/** The question answered: `act` done (null: "no"); the focus, whose button goes, to
 * the turn banner, or after a "no" back to the button that asked (`again`). */
export function answer(
  app: TurnHost,
  act: "resign" | "claim" | "back" | null,
  again: "resign" | "claim" | null = null,
): void {
  app.t.confirm = null;
  if (act) app.act(act);
  app.renderTableNow();
  if (again) app.main.querySelector<HTMLElement>(`[data-key="${again}"]`)?.focus();
  else app.focusTurn();
}
