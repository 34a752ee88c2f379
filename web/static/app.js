// The page's only script: it puts what the WebAssembly writes (SVG, HTML, the record, the
// URL) on the page and forwards clicks, keys and the URL to it. No rule, coordinate or
// number of the game lives here: see web/src/lib.rs.
import init, { App } from './pkg/birdcage_web.js';

const $ = (id) => document.getElementById(id);
// Figures for the browser test and the curious: milliseconds (performance.now()).
// moveMs: a click's whole cost (the move, the machine's reply, the page redrawn); replyMs:
// the move checked and the machine's reply (its exact solve), in WebAssembly.
const timings = (window.birdcage = {
  firstRenderMs: null, lastMoveMs: null, moveMs: [], lastReplyMs: null, replyMs: [],
});
let app = null;
// The line under the board before any edge is pointed at; a new game, a size or a link
// starts from it again (what it said was of the board before).
const INFO = $('info').textContent;

function show(message) {
  $('message').textContent = message;
  $('message').hidden = !message;
}

function draw(focus) {
  $('board').innerHTML = app.svg();
  $('panel').innerHTML = app.panel();
  $('record').textContent = app.record();
  show(app.message());
  const hash = '#' + app.hash();
  if (location.hash !== hash) history.replaceState(null, '', hash);
  $('share').href = location.href;
  const theme = app.theme();
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  if (focus) {
    // Keyboard play: back to the edge nearest where the focus was (or the hinted one).
    const edges = [...document.querySelectorAll('#board [data-edge]')];
    const hinted = edges.find((e) => e.classList.contains('hinted'));
    let best = hinted || edges[0];
    if (!hinted && focus.x !== undefined) {
      let d = Infinity;
      for (const el of edges) {
        const [x, y] = centre(el);
        const dd = (x - focus.x) ** 2 + (y - focus.y) ** 2;
        if (dd < d) { d = dd; best = el; }
      }
    }
    (best || $('undo')).focus();
  }
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function load() {
  try {
    if (app) app.free();
    app = new App(location.hash.slice(1));
    $('info').textContent = INFO;
    $('controls').innerHTML = app.controls();
    $('graph-text').value = app.graph_text();
    if (app.graph_text()) $('graph-box').open = true;
    draw();
  } catch (e) {
    show('The page failed: ' + e);
  }
}

function play(name) {
  const active = document.activeElement;
  let focus;
  if (active && active.closest && active.closest('#board [data-edge]')) {
    const [x, y] = centre(active);
    focus = { x, y };
  }
  const t = performance.now();
  const ok = app.play(name);
  const reply = performance.now() - t;
  draw(focus);
  const ms = performance.now() - t;
  if (ok) {
    timings.lastMoveMs = ms;
    timings.moveMs.push(ms);
    timings.lastReplyMs = reply;
    timings.replyMs.push(reply);
  }
  return ok;
}

// Arrow keys: to the nearest edge on that side, by where the edges are drawn.
function step(from, key) {
  const c = centre;
  const [x0, y0] = c(from);
  const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestScore = Infinity;
  for (const el of document.querySelectorAll('#board [data-edge]')) {
    if (el === from) continue;
    const [x, y] = c(el);
    const along = (x - x0) * dir[0] + (y - y0) * dir[1];
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * dir[1] - (y - y0) * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = el; }
  }
  if (best) best.focus();
}

function wire() {
  const board = $('board');
  board.addEventListener('click', (e) => {
    const edge = e.target.closest('[data-edge]');
    if (edge) play(edge.dataset.edge);
  });
  board.addEventListener('keydown', (e) => {
    const edge = e.target.closest('[data-edge]');
    if (!edge) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      play(edge.dataset.edge);
    } else if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      step(edge, e.key);
    }
  });
  const explain = (e) => {
    const edge = e.target.closest('[data-info]');
    if (edge) $('info').textContent = edge.dataset.info;
  };
  board.addEventListener('pointerover', explain);
  board.addEventListener('focusin', explain);
  $('controls').addEventListener('change', (e) => {
    const key = e.target.dataset.setting;
    if (!key) return;
    const value = e.target.type === 'checkbox' ? (e.target.checked ? 'on' : 'off') : e.target.value;
    const hash = app.with_setting(key, value);
    if (hash) location.hash = hash;
    else show(app.message());
  });
  $('controls').addEventListener('submit', (e) => e.preventDefault());
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (play($('move').value.trim())) $('move').value = '';
    $('move').focus();
  });
  $('undo').addEventListener('click', () => { app.undo(); draw(); });
  // The hint searches for up to a second or two: the button says so (busy, disabled) and
  // the browser paints that before the search starts. Its move fills the Move field, so
  // that Play plays it; its line stands under the board too (after the focus moves to the
  // hinted edge, whose own line it would replace): on a phone the panel is below the fold.
  $('hint').addEventListener('click', async () => {
    const button = $('hint');
    const label = button.textContent;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    button.textContent = 'Searching…';
    await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
    try {
      const line = app.hint();
      $('move').value = app.hint_move();
      draw({});
      $('info').textContent = line;
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
      button.textContent = label;
    }
  });
  $('new').addEventListener('click', () => {
    $('info').textContent = INFO;
    location.hash = app.new_game(false);
  });
  $('graph-play').addEventListener('click', () => {
    const hash = app.with_graph($('graph-text').value);
    if (hash) location.hash = hash;
    else show(app.message());
  });
  $('graph-cage').addEventListener('click', () => { location.hash = app.new_game(true); });
  const box = $('graph-box');
  box.addEventListener('dragover', (e) => e.preventDefault());
  box.addEventListener('drop', async (e) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (!file) return;
    $('graph-text').value = await file.text();
    $('graph-play').click();
  });
  window.addEventListener('hashchange', load);
}

await init({ module_or_path: new URL("./pkg/birdcage_web_bg.wasm", import.meta.url) });
// A phone starts with the settings folded (one line at the top), the board on its first screen.
if (matchMedia('(max-width: 820px)').matches) $('settings').open = false;
wire();
load();
timings.firstRenderMs = performance.now();
document.body.dataset.ready = 'true';
