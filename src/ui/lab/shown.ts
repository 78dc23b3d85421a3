/** Whether an element is in view (./ExportMenu.tsx: its list follows its button while it is). */
/** Whether part of `el` is in view: inside the window and inside every ancestor that clips (a scrolling column). */
export function shown(el: Element): boolean {
  let { left, top, right, bottom } = el.getBoundingClientRect();
  [right, bottom] = [Math.min(right, window.innerWidth), Math.min(bottom, window.innerHeight)];
  [left, top] = [Math.max(left, 0), Math.max(top, 0)];
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const c = p.getBoundingClientRect();
    [left, top, right, bottom] = [
      Math.max(left, c.left),
      Math.max(top, c.top),
      Math.min(right, c.right),
      Math.min(bottom, c.bottom),
    ];
  }
  return right > left && bottom > top;
}
