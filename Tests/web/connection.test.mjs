// The stream's address is relative to the page, so RingCast works behind a proxy at any path
// prefix. Run: node --test Tests/web/
import { test } from "node:test";
import assert from "node:assert/strict";
import { streamAddress } from "../../web/connection.js";

const at = (href) => {
  const url = new URL(href);
  return { href: url.href, protocol: url.protocol, host: url.host, search: url.search };
};

test("at the root, the stream is /ws on the same host, and the server chooses the board", () => {
  const { board, url } = streamAddress(at("http://tv.local:8080/"));
  assert.equal(board, null);
  assert.equal(url, "ws://tv.local:8080/ws?format=binary&refusal=message");
});

test("a board given by the caller is asked for when the page names none", () => {
  const { board, url } = streamAddress(at("http://tv.local:8080/?kiosk=1"), { board: "lobby" });
  assert.equal(board, "lobby");
  assert.equal(url, "ws://tv.local:8080/ws?board=lobby&format=binary&refusal=message");
});

test("under a proxy's prefix, the stream keeps the prefix and the page's query", () => {
  const { board, url } = streamAddress(at("https://example.com/rc/?board=ci&token=t1&format=json"));
  assert.equal(board, "ci");
  assert.equal(url, "wss://example.com/rc/ws?board=ci&format=json&token=t1&refusal=message");
});

test("from index.html under a prefix, and with reduced motion", () => {
  const { url } = streamAddress(at("http://h/a/b/index.html?board=x"), { reducedMotion: true });
  assert.equal(url, "ws://h/a/b/ws?board=x&format=binary&motion=reduced&refusal=message");
});

test("a playlist is streamed instead of a board", () => {
  const { playlist, url } = streamAddress(at("http://tv.local:8080/?playlist=wall&token=t1"));
  assert.equal(playlist, "wall");
  assert.equal(url, "ws://tv.local:8080/ws?playlist=wall&format=binary&token=t1&refusal=message");
  assert.equal(streamAddress(at("http://tv.local:8080/?board=ci")).playlist, null);
});
