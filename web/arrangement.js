// Which of the layout's arrangements the page draws. The server lays every board out in a
// `landscape` and a `portrait` arrangement (docs/PROTOCOL.md, "layout"); the page picks the one
// whose shape is nearest its own box's and picks again when the box changes. A choice, not
// geometry: nothing is placed here.

// The index of the arrangement whose aspect ratio (width / height) is nearest that of a box
// `width` × `height`, nearness measured between log ratios (so 2:1 and 1:2 are equally far from
// 1:1). Ties go to the earlier arrangement, the board's own; so does a box with no size yet.
export function chooseArrangement(arrangements, width, height) {
  if (!(width > 0 && height > 0)) {
    return 0;
  }
  const box = Math.log(width / height);
  let best = 0;
  let bestDistance = Infinity;
  arrangements.forEach((arrangement, index) => {
    const distance = Math.abs(Math.log(arrangement.width / arrangement.height) - box);
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}
