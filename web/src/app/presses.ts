/**
 * Presses on the page (a finger, a pen, a mouse button) that have not yet ended in a
 * click. News that would draw the table anew waits for the press to end: a move drawn
 * under a finger could move the button it presses (lines added above it, the focus and
 * the page going to the grid), and the press would end over something else, no click at
 * all.
 */
export class Presses {
  /** A press is in progress (from the press until its click, or until it is let go
   * elsewhere, cancelled, or has lasted long). */
  pressing = false;
  private timer = 0;
  /** What waits for the press to end: the update pump, then one redraw. */
  private waiting: (() => void)[] = [];
  private redraw: (() => void) | null = null;

  /** A tap's click comes a moment after the finger is lifted, a mouse button's at once;
   * a press that ends without a click (let go elsewhere) or lasts long lets news through
   * after a moment all the same. What waited runs after the click has done its own. */
  constructor() {
    const pressed = (ms: number) => {
      clearTimeout(this.timer);
      this.pressing = true;
      this.timer = window.setTimeout(released, ms);
    };
    const released = () => {
      clearTimeout(this.timer);
      this.pressing = false;
      setTimeout(() => {
        if (this.pressing) return;
        for (const go of this.waiting.splice(0)) go();
        const draw = this.redraw;
        this.redraw = null;
        draw?.();
      }, 0);
    };
    document.addEventListener("pointerdown", (e) => e.isPrimary && pressed(1500), true);
    document.addEventListener(
      "pointerup",
      (e) => e.isPrimary && this.pressing && pressed(400),
      true,
    );
    for (const type of ["click", "pointercancel"]) document.addEventListener(type, released, true);
  }

  /** Resolves once the press in progress has ended (and its click was handled). */
  released(): Promise<void> {
    return new Promise<void>((go) => this.waiting.push(go));
  }

  /** `draw` now, or once the press in progress has ended (asked twice, drawn once). */
  later(draw: () => void): void {
    if (this.pressing) this.redraw = draw;
    else draw();
  }
}
