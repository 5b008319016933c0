// touch.js — fingers on the planner's canvas, read by the page (loaded before shell.js, which
// calls gpuplanWireTouch once the canvas exists).
(() => {
  'use strict';

  // Touch. SDL would turn a finger into a mouse button held down wherever the finger goes and
  // cancel the browser's own gestures, so a swipe dragged whatever it started on and scrolled
  // nothing, and a tap never gave the canvas the keyboard focus the planner reads the mouse by
  // (Dear ImGui's SDL backend ignores the mouse of an unfocused window in the browser). The page
  // reads touches itself and hands SDL what a mouse and a touchpad would send:
  // - a finger lifted within TAP_SLOP_PX of where it went down is one click there (one tap
  //   selects a tab or presses a button);
  // - a finger that moves further is a swipe: it scrolls what is under it, following the
  //   finger, as wheel events (sideways too: a wide table scrolls inside its frame), and
  //   clicks nothing.
  // - a finger held still for LONG_PRESS_MS or more before it lifts is a right-click there
  //   (on a figure: copy its value and explanation). It is sent when the finger lifts, which
  //   the browser counts as the user's action, so the page may write to the clipboard.
  // A second finger cancels the touch (no click, no more scrolling).
  const TAP_SLOP_PX = 10;
  const LONG_PRESS_MS = 500;
  // Dear ImGui 1.86 (with its SDL backend) scrolls one step per wheel event, whatever its size:
  // 5 lines of its 15 px font down or up, 2 sideways. A swipe sends one event per step the
  // finger has travelled, so the view follows the finger. The wheel's signs are SDL's: 100 px
  // of deltaY make its one step (less rounds to none), and its sideways step is the opposite of
  // what Dear ImGui 1.86 takes a touchpad's to mean, so deltaX here has the finger's sign.
  const STEP_DOWN_PX = 5 * 15;
  const STEP_SIDEWAYS_PX = 2 * 15;
  window.gpuplanWireTouch = function wireTouch(canvas) {
    let finger = null;  // where it went down, where it is, and the swipe not yet scrolled (dx, dy)
    // button 0 is the left button, 2 the right one (buttons: 1 and 2 while it is down).
    const mouse = (type, x, y, button = 0) => canvas.dispatchEvent(new MouseEvent(type, {
      clientX: x, clientY: y, button, buttons: type === 'mousedown' ? (button === 2 ? 2 : 1) : 0, bubbles: true, cancelable: true, view: window }));
    const ours = (event) => {
      event.stopImmediatePropagation();  // SDL's own touch handling never sees it
      if (event.cancelable) event.preventDefault();
      return finger && [...event.changedTouches].find((t) => t.identifier === finger.id);
    };
    canvas.addEventListener('touchstart', (event) => {
      ours(event);
      if (event.touches.length !== 1) { finger = null; return; }
      const t = event.changedTouches[0];
      finger = { id: t.identifier, x: t.clientX, y: t.clientY, startX: t.clientX, startY: t.clientY, swiping: false, dx: 0, dy: 0,
                 downAt: event.timeStamp };
      canvas.focus({ preventScroll: true });
      mouse('mousemove', t.clientX, t.clientY);  // the pointer arrives, as a mouse's would
    }, { capture: true, passive: false });
    canvas.addEventListener('touchmove', (event) => {
      const t = ours(event);
      if (!t) return;
      if (!finger.swiping && Math.hypot(t.clientX - finger.startX, t.clientY - finger.startY) > TAP_SLOP_PX) finger.swiping = true;
      if (finger.swiping) {
        finger.dx += t.clientX - finger.x;
        finger.dy += t.clientY - finger.y;
        const wheel = (deltaX, deltaY) => canvas.dispatchEvent(new WheelEvent('wheel', {
          clientX: finger.startX, clientY: finger.startY, deltaMode: WheelEvent.DOM_DELTA_PIXEL, deltaX, deltaY,
          bubbles: true, cancelable: true }));
        for (; Math.abs(finger.dy) >= STEP_DOWN_PX; finger.dy -= Math.sign(finger.dy) * STEP_DOWN_PX) wheel(0, -Math.sign(finger.dy) * 100);
        for (; Math.abs(finger.dx) >= STEP_SIDEWAYS_PX; finger.dx -= Math.sign(finger.dx) * STEP_SIDEWAYS_PX) wheel(Math.sign(finger.dx), 0);
      }
      finger.x = t.clientX;
      finger.y = t.clientY;
    }, { capture: true, passive: false });
    const lift = (event) => {
      const t = ours(event);
      if (!t) return;
      if (event.type === 'touchend' && !finger.swiping) {
        const button = event.timeStamp - finger.downAt >= LONG_PRESS_MS ? 2 : 0;
        mouse('mousemove', t.clientX, t.clientY);
        mouse('mousedown', t.clientX, t.clientY, button);
        mouse('mouseup', t.clientX, t.clientY, button);
      }
      finger = null;
    };
    canvas.addEventListener('touchend', lift, { capture: true, passive: false });
    canvas.addEventListener('touchcancel', lift, { capture: true, passive: false });
  };
})();
