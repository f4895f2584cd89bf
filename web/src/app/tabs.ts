/**
 * One seat, one tab: a seat taken up in another tab of this browser is said plainly in
 * both. A tab that takes a seat up (`resumed`) tells the other tabs of this browser (a
 * `BroadcastChannel`); the one that had it answers, lets it go for good (it would take
 * it back when its own connection came again) and says so, and the new one says that
 * it plays the seat now. A seat taken up on another device is said by the tab that had
 * it alone: the server closes its connection, and no tab of this browser answers.
 */
import type { TabsHost } from "./host";
import type { Here } from "./store";

interface Said {
  kind: "took" | "had";
  host: string;
  table: string;
  seat: number;
  tab: string;
  to?: string;
}

export class SeatTabs {
  private readonly id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  private readonly channel: BroadcastChannel | null =
    typeof BroadcastChannel === "function" ? new BroadcastChannel("kk:seats") : null;

  constructor(private readonly host: TabsHost) {
    this.channel?.addEventListener("message", (e: MessageEvent) => this.heard(e.data as Said));
  }

  /** This tab took up the seat `h` (resumed it): a tab that had it is told. */
  took(h: Here): void {
    if (h.seat !== null) this.say({ kind: "took", table: h.table, seat: h.seat });
  }

  private say(m: Omit<Said, "host" | "tab">): void {
    this.channel?.postMessage({ ...m, host: location.host, tab: this.id });
  }

  private heard(m: Said): void {
    if (!m || m.host !== location.host || m.tab === this.id) return;
    const here = this.host.here;
    if (m.kind === "took" && here && here.table === m.table && here.seat === m.seat) {
      this.say({ kind: "had", table: m.table, seat: m.seat, to: m.tab });
      this.host.takenByTab();
    } else if (m.kind === "had" && m.to === this.id) this.host.tookFromTab();
  }
}
