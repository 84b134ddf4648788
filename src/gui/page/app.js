// Otrera's page: draws what the server sends (it holds no rules of its own: legal moves,
// territory, regions and scores all come from the engine) and sends clicks back as requests.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const ARROW_COLORS = ['#1e6fd9', '#1f9d55', '#e08a00'];
const $ = (id) => document.getElementById(id);

let state = null;        // the last state from the server
let analysis = null;     // the last analysis snapshot of the shown position
let selection = null;    // {from, to} square numbers while a move is being entered
let stateTime = 0;       // when `state` arrived (the clocks count down from it)

// ---- helpers ----------------------------------------------------------------------------------

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function squareName(n, dims) {
  return String.fromCharCode(97 + (n % dims.w)) + (Math.floor(n / dims.w) + 1);
}

function squareNumber(name, dims) {
  const file = name.charCodeAt(0) - 97;
  const rank = parseInt(name.slice(1), 10) - 1;
  return rank * dims.w + file;
}

// A board's files (w) and ranks (h).
function boardDims(pos) {
  return { w: pos.width, h: pos.height };
}

// Centre of square n in board coordinates (one unit a square, half a unit of margin).
function centre(n, dims) {
  const file = n % dims.w, rank = Math.floor(n / dims.w);
  return [0.5 + file + 0.5, 0.5 + (dims.h - 1 - rank) + 0.5];
}

function parseMove(text, dims) {
  const m = /^([a-j]\d+)-([a-j]\d+)\/([a-j]\d+)$/.exec(text);
  return m && { from: squareNumber(m[1], dims), to: squareNumber(m[2], dims), arrow: squareNumber(m[3], dims) };
}

function showMessage(text, isError) {
  const m = $('message');
  m.textContent = text || '';
  m.className = isError ? 'error' : '';
}

function formatTime(ms) {
  if (ms === null || ms === undefined) return '\u2014';
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return (h > 0 ? h + ':' : '') + mm + ':' + String(sec).padStart(2, '0');
}

// ---- requests ---------------------------------------------------------------------------------

async function post(path, body) {
  try {
    const r = await fetch('/api/' + path, {
      method: 'POST',
      headers: { 'X-Otrera': '1', 'Content-Type': 'text/plain' },
      body: body === undefined ? '' : String(body),
    });
    const data = await r.json();
    if (!r.ok) {
      showMessage(data.error || ('request failed: ' + r.status), true);
      return null;
    }
    showMessage('');
    render(data);
    return data;
  } catch (e) {
    showMessage('the server does not answer (' + e.message + ')', true);
    return null;
  }
}

// ---- the move being entered --------------------------------------------------------------------

// From the legal moves: amazon -> destination -> arrows.
function moveTree() {
  const tree = new Map();
  const dims = boardDims(state.position);
  for (const text of state.position.legal) {
    const m = parseMove(text, dims);
    if (!m) continue;
    if (!tree.has(m.from)) tree.set(m.from, new Map());
    const tos = tree.get(m.from);
    if (!tos.has(m.to)) tos.set(m.to, []);
    tos.get(m.to).push(m.arrow);
  }
  return tree;
}

let tree = new Map();

function canMove() {
  if (!state || state.flagged || state.position.winner) return false;
  return !state.status.startsWith('thinking');
}

function clickSquare(n) {
  if (!canMove()) { selection = null; drawBoard(); return; }
  const dims = boardDims(state.position);
  if (selection && selection.to !== undefined) {
    const arrows = tree.get(selection.from).get(selection.to);
    if (arrows.includes(n)) {
      const text = squareName(selection.from, dims) + '-' + squareName(selection.to, dims) + '/' + squareName(n, dims);
      selection = null;
      post('play', text);
      return;
    }
    selection = tree.has(n) ? { from: n } : null;
  } else if (selection) {
    const tos = tree.get(selection.from);
    if (tos.has(n)) selection = { from: selection.from, to: n };
    else selection = tree.has(n) && n !== selection.from ? { from: n } : null;
  } else if (tree.has(n)) {
    selection = { from: n };
  }
  drawBoard();
}

// ---- drawing the board --------------------------------------------------------------------------

function crown(x, y, cls, parent) {
  const p = [[-.22, .12], [.22, .12], [.26, -.14], [.12, -.02], [0, -.2], [-.12, -.02], [-.26, -.14]]
    .map(([a, b]) => (x + a).toFixed(3) + ',' + (y + b).toFixed(3)).join(' ');
  el('polygon', { points: p, class: cls }, parent);
}

function drawAmazon(n, color, dims, parent, extraClass) {
  const [x, y] = centre(n, dims);
  const g = el('g', { class: extraClass || '' }, parent);
  el('circle', { cx: x, cy: y, r: 0.38, class: 'amazon-' + color }, g);
  crown(x, y + 0.02, 'crown-' + color, g);
}

function drawBurnt(n, dims, parent) {
  const [x, y] = centre(n, dims);
  el('rect', { x: x - 0.42, y: y - 0.42, width: 0.84, height: 0.84, rx: 0.08, class: 'burnt' }, parent);
  el('path', { d: `M${x - .22},${y - .22}L${x + .22},${y + .22}M${x + .22},${y - .22}L${x - .22},${y + .22}`, class: 'burnt-x' }, parent);
}

function drawTerritory(parent) {
  const pos = state.position, dims = boardDims(pos);
  let shaded = 0;
  for (let n = 0; n < dims.w * dims.h; n++) {
    if (pos.pieces[n] !== '.') continue;
    const dw = pos.territory.white[n], db = pos.territory.black[n];
    if (dw < 0 && db < 0) continue;
    const far = 99;
    const w = dw < 0 ? far : dw, b = db < 0 ? far : db;
    const [x, y] = centre(n, dims);
    // Flatten the checkerboard first, so the tints read as colours and not as square colours.
    el('rect', { x: x - 0.5, y: y - 0.5, width: 1, height: 1, fill: '#f3ecdc', 'fill-opacity': 0.8 }, parent);
    if (w === b) {
      // Reached first by neither: contested.
      el('circle', { cx: x, cy: y, r: 0.07, fill: '#555', 'fill-opacity': 0.55 }, parent);
    } else {
      // White's squares blue, Black's red, the deeper the larger the lead.
      const margin = Math.min(Math.abs(w - b), 3);
      const opacity = 0.14 + 0.13 * margin;
      el('rect', {
        x: x - 0.5, y: y - 0.5, width: 1, height: 1,
        fill: w < b ? '#1e6fd9' : '#c0392b', 'fill-opacity': opacity.toFixed(2),
      }, parent);
    }
    shaded++;
  }
  document.body.dataset.territory = shaded;
}

function drawRegions(parent, labels) {
  const pos = state.position, dims = boardDims(pos);
  const colors = { white: '#1e6fd9', black: '#c0392b', dead: '#777777' };
  let drawn = 0;
  for (const region of pos.regions) {
    const color = colors[region.kind];
    if (!color) continue;
    for (const n of region.squares) {
      const [x, y] = centre(n, dims);
      el('rect', {
        x: x - 0.46, y: y - 0.46, width: 0.92, height: 0.92, fill: color, 'fill-opacity': 0.16,
        stroke: color, 'stroke-width': 0.05, 'stroke-opacity': 0.8,
      }, parent);
    }
    if (region.kind !== 'dead' && region.squares.length) {
      // Label on the region's top-left square.
      const top = region.squares.reduce((a, b) => {
        const ra = Math.floor(a / dims.w), rb = Math.floor(b / dims.w);
        return rb > ra || (rb === ra && b % dims.w < a % dims.w) ? b : a;
      });
      const [x, y] = centre(top, dims);
      const t = el('text', { x: x - 0.46, y: y - 0.2, class: 'region-label', fill: color }, labels);
      t.textContent = (region.kind === 'white' ? 'W ' : 'B ') + (region.movesLeft ?? '?');
    }
    drawn++;
  }
  document.body.dataset.regions = drawn;
}

function drawAnalysisArrows(parent) {
  let drawn = 0;
  if (!analysis || analysis.positionId !== state.positionId || !$('analysis').checked) {
    document.body.dataset.arrows = 0;
    return;
  }
  const dims = boardDims(state.position);
  const total = analysis.moves.reduce((s, m) => s + m.visits, 0) || 1;
  analysis.moves.slice(0, 3).forEach((m, i) => {
    const [from, to, arrow] = m.squares;
    const [x1, y1] = centre(from, dims), [x2, y2] = centre(to, dims), [x3, y3] = centre(arrow, dims);
    const width = (0.08 + 0.14 * Math.sqrt(m.visits / total)).toFixed(3);
    const color = ARROW_COLORS[i];
    const g = el('g', { class: 'analysis-arrow', opacity: i === 0 ? 0.9 : 0.75 }, parent);
    el('line', { x1, y1, x2, y2, stroke: color, 'stroke-width': width, 'marker-end': `url(#head${i})`, 'stroke-linecap': 'round' }, g);
    el('line', { x1: x2, y1: y2, x2: x3, y2: y3, stroke: color, 'stroke-width': 0.05, 'stroke-dasharray': '0.12 0.08' }, g);
    el('circle', { cx: x3, cy: y3, r: 0.14, fill: 'none', stroke: color, 'stroke-width': 0.07 }, g);
    drawn++;
  });
  document.body.dataset.arrows = drawn;
}

function drawBoard() {
  const board = $('board');
  if (!state) return;
  const pos = state.position, dims = boardDims(pos);
  board.setAttribute('viewBox', `0 0 ${dims.w + 1} ${dims.h + 1}`);
  board.textContent = '';
  const defs = el('defs', {}, board);
  ARROW_COLORS.forEach((c, i) => {
    const m = el('marker', { id: 'head' + i, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto' }, defs);
    el('path', { d: 'M0,0L10,5L0,10z', fill: c }, m);
  });
  const squares = el('g', {}, board);
  for (let n = 0; n < dims.w * dims.h; n++) {
    const [x, y] = centre(n, dims);
    const file = n % dims.w, rank = Math.floor(n / dims.w);
    const r = el('rect', {
      x: x - 0.5, y: y - 0.5, width: 1, height: 1,
      class: 'sq ' + ((file + rank) % 2 === 0 ? 'dark' : 'light'),
      'data-sq': squareName(n, dims),
    }, squares);
    r.addEventListener('click', () => clickSquare(n));
  }
  for (let i = 0; i < dims.w; i++) {
    const f = el('text', { x: 0.5 + i + 0.5, y: dims.h + 0.85, 'text-anchor': 'middle', class: 'coord' }, board);
    f.textContent = String.fromCharCode(97 + i);
  }
  for (let i = 0; i < dims.h; i++) {
    const r = el('text', { x: 0.25, y: 0.5 + (dims.h - 1 - i) + 0.6, 'text-anchor': 'middle', class: 'coord' }, board);
    r.textContent = String(i + 1);
  }
  const overlay = el('g', { 'pointer-events': 'none' }, board);
  document.body.dataset.territory = 0;
  document.body.dataset.regions = 0;
  if ($('territory').checked) drawTerritory(overlay);
  const labels = el('g', { 'pointer-events': 'none' });
  if ($('regions').checked) drawRegions(overlay, labels);
  // The last move: where the amazon came from and went, and its arrow.
  if (state.ply > 0) {
    const m = parseMove(state.moves[state.ply - 1], dims);
    if (m) for (const n of [m.from, m.to, m.arrow]) {
      const [x, y] = centre(n, dims);
      el('rect', { x: x - 0.46, y: y - 0.46, width: 0.92, height: 0.92, class: 'last-move' }, overlay);
    }
  }
  const pieces = el('g', { 'pointer-events': 'none' }, board);
  for (let n = 0; n < dims.w * dims.h; n++) {
    const p = pos.pieces[n];
    if (selection && selection.to !== undefined && n === selection.from) continue;
    if (p === 'W') drawAmazon(n, 'white', dims, pieces);
    else if (p === 'B') drawAmazon(n, 'black', dims, pieces);
    else if (p === 'x') drawBurnt(n, dims, pieces);
  }
  const marks = el('g', { 'pointer-events': 'none' }, board);
  if (selection) {
    const [sx, sy] = centre(selection.from, dims);
    el('rect', { x: sx - 0.5, y: sy - 0.5, width: 1, height: 1, class: 'selected' }, marks);
    const color = pos.toMove;
    if (selection.to === undefined) {
      for (const to of tree.get(selection.from).keys()) {
        const [x, y] = centre(to, dims);
        el('circle', { cx: x, cy: y, r: 0.15, class: 'target-to' }, marks);
      }
    } else {
      drawAmazon(selection.to, color, dims, marks, 'ghost');
      for (const a of tree.get(selection.from).get(selection.to)) {
        const [x, y] = centre(a, dims);
        el('circle', { cx: x, cy: y, r: 0.15, class: 'target-arrow' }, marks);
      }
    }
  }
  board.appendChild(labels);
  drawAnalysisArrows(el('g', { 'pointer-events': 'none' }, board));
}

// ---- the panel ------------------------------------------------------------------------------------

function drawAnalysisTable() {
  const body = document.querySelector('#analysis-table tbody');
  body.textContent = '';
  const head = $('analysis-head');
  const shown = analysis && analysis.positionId === state.positionId;
  $('analysis-table').hidden = !shown;
  if (!shown) {
    head.textContent = $('analysis').checked ? 'analysis: waiting for the engine\u2026' : 'analysis off';
    return;
  }
  const rate = analysis.ms > 0 ? Math.round(analysis.playouts * 1000 / analysis.ms) : 0;
  head.textContent = `${analysis.side} to move \u00b7 ${analysis.playouts.toLocaleString()} playouts \u00b7 ` +
    `${(analysis.ms / 1000).toFixed(1)} s \u00b7 ${rate.toLocaleString()}/s`;
  analysis.moves.forEach((m, i) => {
    const tr = document.createElement('tr');
    for (const text of [String(i + 1), m.move, m.visits.toLocaleString(),
      (100 * m.winrate).toFixed(1) + '%', m.pv.slice(1).join(' ')]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
}

function drawGraph() {
  const g = $('graph');
  g.textContent = '';
  const n = state.winrates.length - 1;
  const width = 300, height = 90;
  g.setAttribute('viewBox', `0 0 ${width} ${height}`);
  g.setAttribute('preserveAspectRatio', 'none');
  const x = (i) => n === 0 ? width / 2 : 4 + (width - 8) * i / n;
  const y = (w) => 4 + (height - 8) * (1 - w);
  el('line', { x1: 0, y1: y(0.5), x2: width, y2: y(0.5), stroke: '#bbb', 'stroke-dasharray': '4 3', 'vector-effect': 'non-scaling-stroke' }, g);
  el('line', { x1: x(state.ply), y1: 0, x2: x(state.ply), y2: height, stroke: '#e3b505', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' }, g);
  const points = [];
  state.winrates.forEach((w, i) => { if (w !== null) points.push(x(i).toFixed(1) + ',' + y(w).toFixed(1)); });
  if (points.length) {
    el('polyline', { points: points.join(' '), fill: 'none', stroke: '#1e6fd9', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' }, g);
  }
  if (points.length < 40) {
    for (const p of points) {
      const [px, py] = p.split(',');
      el('rect', { x: px - 1.5, y: py - 1.5, width: 3, height: 3, fill: '#1e6fd9' }, g);
    }
  }
  const label = el('text', { x: 4, y: 12, 'font-size': 10, fill: '#777' }, g);
  label.textContent = 'White win rate';
}

function drawMoves() {
  const list = $('moves');
  list.textContent = '';
  const start = document.createElement('li');
  start.textContent = 'start';
  start.id = 'start';
  start.className = state.ply === 0 ? 'current' : '';
  start.addEventListener('click', () => post('goto', 0));
  list.appendChild(start);
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = `${i + 1}. ${m}`;
    li.className = i + 1 === state.ply ? 'current' : (i + 1 > state.ply ? 'future' : '');
    li.addEventListener('click', () => post('goto', i + 1));
    list.appendChild(li);
  });
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

function drawClocks() {
  const c = state.clock;
  for (const side of ['white', 'black']) {
    const box = $('clock-' + side);
    let ms = c[side].ms;
    if (c.running === side && ms !== null) ms -= performance.now() - stateTime;
    box.querySelector('.time').textContent = c.control === 'none' ? '\u2014' : formatTime(ms);
    box.querySelector('.note').textContent = c[side].note + (state.players[side] === 'engine' ? ' (engine)' : '');
    box.classList.toggle('to-move', state.position.toMove === side && !state.position.winner);
    box.classList.toggle('running', c.running === side);
    box.classList.toggle('flagged', state.flagged === side);
  }
}

function statusText() {
  const pos = state.position;
  const name = (c) => c.charAt(0).toUpperCase() + c.slice(1);
  if (state.flagged) {
    return `${name(state.flagged)} ran out of time: ${name(state.flagged === 'white' ? 'black' : 'white')} wins.`;
  }
  if (pos.winner) {
    const loser = pos.winner === 'white' ? 'black' : 'white';
    const score = pos.score ? ` Final score ${pos.score.text}.` : '';
    return `${name(pos.winner)} wins: ${name(loser)} has no move left.${score}`;
  }
  let text = `Move ${state.ply + 1}: ${name(pos.toMove)} to play.`;
  if (state.status.startsWith('thinking')) text = `Move ${state.ply + 1}: the engine is thinking for ${name(pos.toMove)}\u2026`;
  if (pos.score) {
    text += pos.score.winner ? ` Decided: ${pos.score.text}${pos.score.exact ? '' : ' (bounds)'}.` : ` ${pos.score.text}.`;
  }
  if (state.paused && state.players[pos.toMove] === 'engine') text += ' The engine waits: press "Engine, play".';
  return text;
}

function render(newState) {
  // Events and answers may cross: keep the newest (a restarted server starts a new session).
  if (state && newState.session === state.session && newState.version < state.version) return;
  const moved = !state || state.positionId !== newState.positionId || state.session !== newState.session;
  state = newState;
  // A state read some time after it was published says how old it is.
  stateTime = performance.now() - (state.ageMs || 0);
  if (moved) {
    selection = null;
    tree = moveTree();
    analysis = state.lastAnalysis;
  }
  $('analysis').checked = state.analysis;
  $('white').value = state.players.white;
  $('black').value = state.players.black;
  if (document.activeElement !== $('position')) $('position').value = state.position.position;
  if (document.activeElement !== $('time')) $('time').value = state.clock.control;
  if (document.activeElement !== $('size')) {
    // The board menu follows the board on screen, when it lists it.
    const { w, h } = boardDims(state.position);
    const name = w === h && w >= 6 ? String(w) : `${w}x${h}`;
    if ([...$('size').options].some((o) => o.value === name)) $('size').value = name;
  }
  $('resume').disabled = !(state.paused && state.players[state.position.toMove] === 'engine');
  $('back').disabled = $('first').disabled = $('undo').disabled = state.ply === 0;
  $('forward').disabled = $('last').disabled = state.ply === state.moves.length;
  $('status').textContent = statusText();
  document.body.dataset.ply = state.ply;
  document.body.dataset.status = state.status;
  drawBoard();
  drawAnalysisTable();
  drawGraph();
  drawMoves();
  drawClocks();
}

function onAnalysis(a) {
  if (!state || a.positionId !== state.positionId) return;
  analysis = a;
  const best = a.moves[0];
  if (best) state.winrates[a.ply] = a.side === 'white' ? best.winrate : 1 - best.winrate;
  drawBoard();
  drawAnalysisTable();
  drawGraph();
}

// ---- wiring ----------------------------------------------------------------------------------------

function goto(n) {
  if (!state) return;
  n = Math.max(0, Math.min(state.moves.length, n));
  if (n !== state.ply) post('goto', n);
}

function connect() {
  const events = new EventSource('/api/events');
  events.addEventListener('state', (e) => render(JSON.parse(e.data)));
  events.addEventListener('analysis', (e) => onAnalysis(JSON.parse(e.data)));
  events.onerror = () => $('status').textContent = 'connection lost, retrying\u2026';
}

function init() {
  $('undo').addEventListener('click', () => post('undo'));
  $('first').addEventListener('click', () => goto(0));
  $('back').addEventListener('click', () => goto(state.ply - 1));
  $('forward').addEventListener('click', () => goto(state.ply + 1));
  $('last').addEventListener('click', () => goto(state.moves.length));
  $('resume').addEventListener('click', () => post('resume'));
  $('analysis').addEventListener('change', (e) => post('analysis', e.target.checked ? 'on' : 'off'));
  $('territory').addEventListener('change', drawBoard);
  $('regions').addEventListener('change', drawBoard);
  const players = () => post('players', `white=${$('white').value} black=${$('black').value}`);
  $('white').addEventListener('change', players);
  $('black').addEventListener('change', players);
  $('new').addEventListener('click', () => post('new', $('size').value));
  $('set-position').addEventListener('click', () => post('position', $('position').value));
  $('set-time').addEventListener('click', () => post('time', $('time').value));
  $('sgf-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 1000000) { showMessage('that file is too large for a game record', true); return; }
    file.text().then((text) => post('sgf', text));
    e.target.value = '';
  });
  $('graph').addEventListener('click', (e) => {
    const r = $('graph').getBoundingClientRect();
    const n = state.winrates.length - 1;
    goto(Math.round((e.clientX - r.left - 4 * r.width / 300) / ((r.width - 8 * r.width / 300) || 1) * n));
  });
  document.addEventListener('keydown', (e) => {
    if (!state || e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    const keys = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length };
    if (e.key in keys) { e.preventDefault(); goto(keys[e.key]); }
    if (e.key === 'Escape') { selection = null; drawBoard(); }
  });
  setInterval(() => { if (state) drawClocks(); }, 250);
  connect();
}

init();
