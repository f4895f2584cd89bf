/**
 * The table's links to share, with a *Copy link* button each: the invite link (sits a
 * friend down; at a full table it offers to watch) and the watch link. The waiting
 * screen shows them; at the table they are folded into a small *Invite* control.
 */
import { h } from "./dom";
import { _ } from "./i18n";
import type { InviteHost } from "./host";

/** The links of the table this page is at; null when it can give none: a private table
 * whose code the page does not know (a seat taken up on another device by signing in). */
export function tableLinks(app: InviteHost): { join: string; watch: string } | null {
  // the code kept with this table (not the page's last one: another table's, maybe)
  const table = app.here?.table;
  const code = app.here?.invite;
  if (!table || (!code && app.summary?.private)) return null;
  const tail = code ? `${table}/${code}` : table;
  return { join: `${location.origin}/#/join/${tail}`, watch: `${location.origin}/#/watch/${tail}` };
}

/** `Invite link: ... [Copy link]` and `To watch: ... [Copy link]`; `join` false gives the
 * watch link only (a spectator's, who may share what brought them). */
export function linkLines(app: InviteHost, join = true): HTMLElement[] {
  const links = tableLinks(app);
  if (!links) return [];
  const line = (label: string, id: string, href: string): HTMLElement => {
    const byHand = () => {
      // no clipboard (a plain-http address) or it said no: the link selected, ready to copy
      const a = document.getElementById(id);
      if (a) window.getSelection()?.selectAllChildren(a);
      app.say(_("Copy the link by hand: it is selected."));
    };
    const copy = () => {
      if (!navigator.clipboard?.writeText) byHand();
      else navigator.clipboard.writeText(href).then(() => app.say(_("Link copied."), true), byHand);
    };
    return h(
      "p",
      { class: "share" },
      `${label}: `,
      h("a", { id, href }, href),
      " ",
      h("button", { type: "button", "data-key": `copy-${id}`, onclick: copy }, _("Copy link")),
    );
  };
  const watch = line(_("To watch"), "watch-link", links.watch);
  return join ? [line(_("Invite link"), "invite-link", links.join), watch] : [watch];
}
