// Panning and zooming the box that holds a search tree: drag or scroll to pan (a drag stops the view following the
// current node), buttons to zoom, and centring on a point when the view follows.
export const READABLE_ZOOM = 0.6; // below this a 14 px label is smaller than 9 px: the overview folds levels instead

export class PanZoom {
  constructor(scroller, onDrag) {
    this.scroller = scroller;
    this.zoom = 1;
    let drag = null;
    scroller.addEventListener("pointerdown", (event) => {
      if (event.target.closest("[data-id]")) return;
      drag = { x: event.clientX, y: event.clientY, left: scroller.scrollLeft, top: scroller.scrollTop };
    });
    scroller.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x,
        dy = event.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) < 4) return;
      onDrag(); // the teacher is looking somewhere else: stop pulling the view back
      scroller.scrollLeft = drag.left - dx;
      scroller.scrollTop = drag.top - dy;
    });
    const stop = () => {
      drag = null;
    };
    scroller.addEventListener("pointerup", stop);
    scroller.addEventListener("pointerleave", stop);
  }

  setZoom(z) {
    this.zoom = Math.max(READABLE_ZOOM, Math.min(3, z));
  }
  // The zoom at which a picture of width × height fits the box (never above 1).
  fit(width, height) {
    this.zoom = Math.min(1, (this.scroller.clientWidth - 4) / width, (this.scroller.clientHeight - 4) / height);
  }
  box() {
    return { w: this.scroller.clientWidth - 4, h: this.scroller.clientHeight - 4 };
  }
  centre(x, y) {
    this.scroller.scrollLeft = x * this.zoom - this.scroller.clientWidth / 2;
    this.scroller.scrollTop = y * this.zoom - this.scroller.clientHeight / 2;
  }
}
