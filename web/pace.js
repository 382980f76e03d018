// Paces the requests of one control that fires faster than a server should be asked (a slider
// being dragged): at most one request in flight and one started per minGapMs, and only the newest
// value is kept while waiting, so the last value the user chose is always the last one sent and
// requests of one control can never arrive out of order.

export function pacer(send, minGapMs) {
  let wanted = null; // { value } not yet sent, or null
  let inFlight = false;
  let lastStart = -Infinity;
  let timer = 0;

  function pump() {
    if (inFlight || wanted === null || timer !== 0) {
      return;
    }
    const wait = lastStart + minGapMs - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = 0;
        pump();
      }, wait);
      return;
    }
    const { value } = wanted;
    wanted = null;
    inFlight = true;
    lastStart = performance.now();
    Promise.resolve()
      .then(() => send(value))
      .catch(() => {}) // send reports its own failures; the pacer only keeps order
      .finally(() => {
        inFlight = false;
        pump();
      });
  }

  return {
    push(value) {
      wanted = { value };
      pump();
    },
    // True while a value is waiting or on its way: what the server says now may be outdated.
    get busy() {
      return inFlight || wanted !== null;
    },
    // True while a newer value waits behind the one on its way.
    get waiting() {
      return wanted !== null;
    },
  };
}
