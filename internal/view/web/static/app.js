// lucid web's page. Everything it shows was written by models: text goes
// into the page as text nodes (h, textContent), never as markup.
'use strict';

// The bench reads these: when the first board and log page are on the page
// (performance mark lucid-first-data), and when each entry was first put
// on it (lucidSeen[id] = Date.now()).
window.lucidSeen = Object.create(null);

const state = {
  board: null,
  readOnly: false,
  view: 'agents',
  entries: [],          // the log's entries on the page, newest first
  byId: new Map(),
  more: false,
  tail: null,
  filter: { kind: '', agent: '', path: '', q: '', all: false },
  plan: null,
  tree: null, treeTop: '', treeKey: '', treeAt: 0, treeEl: null,
  openDirs: new Set(), closedOnce: new Set(),
  notices: [],          // newest first
  noticeIds: new Set(),
  firstData: false,
};

// ---- building the page -------------------------------------------------

// clean writes the characters that would act unseen as escapes, as lucid's
// commands print them (\x1b, \r, \u202e): control characters (C0 but
// newline and tab, DEL, C1), a CR not before a newline, and the characters
// that reorder or break lines unseen (bidi controls, U+2028, U+2029).
const named = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
function clean(s) {
  return String(s ?? '').replace(/\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, c => {
    const n = c.charCodeAt(0);
    if (named[n]) return named[n];
    return n < 0x80 ? '\\x' + n.toString(16).padStart(2, '0') : '\\u' + n.toString(16).padStart(4, '0');
  });
}

// words fences what an agent or a person wrote (an entry's text, a
// message, a claim's task, a why) as lucid fences it for agents (Go's
// escape.Words): on one line between « and », its line breaks, tabs and
// control characters shown as escapes (\n, \x1b), the guillemets within
// as \u00ab and \u00bb, so that nothing in it passes for the page's own
// words or ends the fence early.
const shown = { '\n': '\\n', '\t': '\\t', '«': '\\u00ab', '»': '\\u00bb' };
function words(s) {
  return '«' + clean(String(s ?? '').replace(/\r\n/g, '\n')).replace(/[\n\t«»]/g, c => shown[c]) + '»';
}

// h makes an element: props are set as properties, never as markup;
// children are elements or strings, which become text.
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el) el[k] = v;
    else el.setAttribute(k, v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(clean(c)));
  }
  return el;
}

function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

const $ = id => document.getElementById(id);

// ---- time --------------------------------------------------------------

function ms(t) { const v = Date.parse(t); return isNaN(v) ? 0 : v; }

function span(d) {
  const s = Math.round(Math.abs(d) / 1000);
  if (s < 60) return s + ' s';
  if (s < 3600) return Math.round(s / 60) + ' min';
  if (s < 86400) return Math.round(s / 3600) + ' h';
  return Math.round(s / 86400) + ' d';
}

function ago(t) { const v = ms(t); return v ? span(Date.now() - v) + ' ago' : ''; }
function until(t) { const v = ms(t); return v ? (v > Date.now() ? 'ends in ' + span(v - Date.now()) : 'ended') : 'held until released'; }
function when(t) { const v = ms(t); return v ? new Date(v).toLocaleString() : ''; }

// ---- talking to the server ---------------------------------------------

// The page's secret is the token of the URL lucid web printed. The page
// takes it from its address, drops it there (and so from the history), and
// keeps it in memory and in this tab's sessionStorage, which only this
// origin (scheme, host and port) reads, so that a reload finds it. It goes
// to the server in the Authorization header of each request. No cookie
// holds it: the browser would send a cookie of this host to every server
// of the host, whatever its port (an agent's dev server the person opens).
const tokenKey = 'lucid-token';
const token = takeToken();

function takeToken() {
  const u = new URL(location.href);
  const t = u.searchParams.get('token');
  if (t === null) {
    try { return sessionStorage.getItem(tokenKey) || ''; } catch { return ''; }
  }
  u.searchParams.delete('token');
  history.replaceState(history.state, '', u.pathname + u.search + u.hash);
  try { sessionStorage.setItem(tokenKey, t); } catch { /* no storage: this load only */ }
  return t;
}

// request fetches path from the server, with the token.
function request(path, opt) {
  const headers = Object.assign({}, opt && opt.headers);
  if (token) headers.Authorization = 'Bearer ' + token;
  return fetch(path, Object.assign({ cache: 'no-store', credentials: 'omit' }, opt, { headers }));
}

// failure is the error of a refused request: the server's words.
async function failure(r) {
  let data;
  try { data = await r.json(); } catch { data = {}; }
  return new Error(data.error || r.status + ' ' + r.statusText);
}

async function api(path, body) {
  const opt = body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  };
  const r = await request(path, opt);
  if (!r.ok) throw await failure(r);
  return r.json();
}

function label(id) {
  const a = state.board && state.board.agents.find(a => a.id === id);
  return a ? a.label : id === 'human' ? 'a person' : (id || 'a person');
}

function claimById(id) {
  return state.board ? state.board.claims.find(c => c.id === id) : undefined;
}

// An action's form: fields, a button, and where its error shows.
function actionForm(fields, button, run, done) {
  const err = h('span', { class: 'error' });
  const btn = h('button', { type: 'submit', class: 'act primary' }, button);
  const form = h('form', {
    class: 'form', onsubmit: async ev => {
      ev.preventDefault();
      err.textContent = '';
      btn.disabled = true;
      try { await run(); if (done) done(); } catch (e) { err.textContent = clean(e.message); } finally { btn.disabled = false; }
    },
  }, fields, btn, err);
  return form;
}

// toggle puts a form under a button, or takes it away. While a form is
// open its view is not drawn again (the board moves on every few seconds),
// so that what the person types stays; it is drawn when the form closes.
function toggle(holder, make) {
  if (holder.firstChild) { holder.replaceChildren(); redraw(); return; }
  holder.append(make(() => { holder.replaceChildren(); redraw(); }));
  const first = holder.querySelector('input, textarea');
  if (first) first.focus();
}

function editing(view) {
  return !!$('view-' + view).querySelector('.holder > *');
}

// redraw draws the view shown again, unless the person is filling a form
// in it. The log is drawn as entries come, not with the board.
function redraw() {
  if (state.view !== 'log' && !editing(state.view)) {
    views[state.view]();
    window.lucidDraws = (window.lucidDraws || 0) + 1; // for the page's tests
  }
}

function releaseForm(owner, globs) {
  return close => {
    const why = h('input', { type: 'text', placeholder: 'why (told to the agent)', name: 'why' });
    return actionForm([h('span', { class: 'small' }, 'release ' + (globs.length ? globs.join(', ') : 'all claims') + ' of ' + label(owner) + ':'), why],
      'Release', () => api('/api/release', { owner, globs, why: why.value }), close);
  };
}

function messageForm(to) {
  return close => {
    const text = h('input', { type: 'text', placeholder: 'message to ' + label(to), name: 'text' });
    const ask = h('input', { type: 'checkbox', name: 'ask' });
    return actionForm([text, h('label', { class: 'small' }, ask, ' a question')], 'Send',
      () => api('/api/message', { to, text: text.value, ask: ask.checked }), close);
  };
}

function actions(...buttons) {
  if (state.readOnly) return null;
  const holder = h('div', { class: 'holder' });
  const row = h('div', { class: 'form' }, buttons.map(([name, make]) =>
    h('button', { type: 'button', class: 'act', onclick: () => toggle(holder, make) }, name)));
  return h('div', null, row, holder);
}

// ---- views -------------------------------------------------------------

const views = {
  agents: renderAgents,
  tree: renderTree,
  log: renderLog,
  plan: renderPlan,
  notices: renderNotices,
};

function show(view) {
  if (!views[view]) view = 'agents';
  state.view = view;
  for (const b of document.querySelectorAll('#nav button')) {
    if (b.dataset.view === view) b.setAttribute('aria-current', 'page'); else b.removeAttribute('aria-current');
  }
  for (const v of Object.keys(views)) $('view-' + v).hidden = v !== view;
  if (view === 'plan' && !state.plan) loadPlan();
  if (view === 'tree') loadTree();
  views[view]();
}

function renderAgents() {
  const el = $('view-agents');
  const b = state.board;
  if (!b) return fill(el, h('p', { class: 'empty' }, 'loading…'));
  if (!b.agents.length) return fill(el, h('h2', null, 'Agents'), h('p', { class: 'empty' }, 'No agent has acted in this repository yet.'));
  const rows = b.agents.map(a => {
    const claims = (a.claims || []).map(claimById).filter(Boolean);
    return h('tr', { dataset: { agent: a.id } },
      h('td', null, h('strong', null, a.label), h('div', { class: 'muted small' }, a.id)),
      h('td', null, a.client),
      h('td', null, h('span', { class: 'state ' + a.state }, a.state)),
      h('td', { class: 'small' }, a.worktree),
      h('td', null, claims.length ? claims.map(c => h('div', { class: 'small' }, c.globs.join(', '),
        claimWhat(c))) : h('span', { class: 'muted' }, '—')),
      h('td', null, String(a.entries)),
      h('td', null, a.unread + (a.unread_more ? '+' : '')),
      h('td', null, String(a.waiting)),
      h('td', { class: 'small' }, ago(a.last_seen)),
      h('td', { class: 'small' }, a.denied ? h('span', { class: 'stopped' },
        a.denied.path, ' by ', a.denied.label || a.denied.owner, '’s claim on ', a.denied.glob, ' (', ago(a.denied.at), ')') : ''),
      h('td', null, actions(
        ...(claims.length ? [['Release', releaseForm(a.id, [])]] : []),
        ['Message', messageForm(a.id)])));
  });
  fill(el, h('h2', null, 'Agents'),
    h('table', null, h('thead', null, h('tr', null, ['agent', 'client', 'state', 'work tree', 'claims', 'entries',
      'unread news', 'waiting messages', 'last active', 'stopped by', ''].map(t => h('th', null, t)))),
    h('tbody', null, rows)));
}

// The tree: folders and files, with the claims over each. It is read
// again when the claims change, or when shown after a while (recent edits,
// ages); its folders are built once per read, and stay as the person
// opened them.
function loadTree() {
  const b = state.board;
  if (!b) return;
  const top = state.treeTop || b.top;
  const key = top + '\n' + b.claims.map(c => c.id).join(',');
  if (state.treeKey === key && state.tree && Date.now() - state.treeAt < 15000) return;
  state.treeKey = key;
  state.treeAt = Date.now();
  api('/api/tree?top=' + encodeURIComponent(top)).then(t => {
    state.tree = t;
    state.treeEl = null;
    redraw();
  }, e => { state.tree = { error: e.message }; state.treeEl = null; redraw(); });
}

function tops() {
  const b = state.board;
  const set = new Set([b.top]);
  for (const a of b.agents) if (a.worktree) set.add(a.worktree);
  return [...set];
}

// What a claim is for: its task, or, for a lease, that its owner's write
// took it and holds it until its turn ends.
function claimWhat(c) {
  if (c.lease) return h('span', { class: 'lease' }, ' lease: editing it, until its turn ends');
  return c.task ? h('span', { class: 'muted' }, ' for ', words(c.task)) : null;
}

function claimLine(c) {
  const remote = !!c.machine;
  return h('div', { class: 'claim' + (remote ? ' remote' : '') + (c.lease ? ' leased' : ''), dataset: { claim: c.id } },
    h('div', null, h('strong', null, c.globs.join(', ')), ' ', h('span', { class: 'muted' }, 'by '),
      h('span', null, c.label || c.owner), claimWhat(c)),
    h('div', { class: 'small muted' }, c.lease ? 'leased ' : 'claimed ', ago(c.created), ' · ', until(c.ends),
      c.active ? '' : ' · inactive',
      remote ? ' · on machine ' + c.machine + (state.board.fetched ? ', copy fetched ' + ago(state.board.fetched) : '') : '',
      c.worktree && c.worktree !== state.board.top ? ' · in ' + c.worktree : ''),
    remote ? null : actions(['Release', releaseForm(c.owner, c.globs)]));
}

function renderTree() {
  const el = $('view-tree');
  const b = state.board;
  if (!b) return fill(el, h('p', { class: 'empty' }, 'loading…'));
  const top = state.treeTop || b.top;
  const pick = tops().length > 1 ? h('select', {
    onchange: ev => { state.treeTop = ev.target.value; state.tree = null; state.treeEl = null; loadTree(); renderTree(); },
  }, tops().map(t => h('option', { value: t, selected: t === top }, t))) : null;
  const claims = b.claims.length ? h('div', { class: 'claims' }, b.claims.map(claimLine))
    : h('p', { class: 'empty' }, 'No claims.');
  // Files agents changed lately with no claim between them: what each
  // agent about to write one is told of.
  const editing = (b.editing || []).length ? h('div', { class: 'editing' },
    h('h3', null, 'Edited lately'),
    b.editing.map(e => h('div', { class: 'small' + (e.edits.length > 1 ? ' shared' : ''), dataset: { editing: e.path } },
      h('strong', null, e.path), ' ',
      e.edits.map(ed => (ed.label || ed.agent) + ' ' + ago(ed.at)).join(', ')))) : null;
  let tree;
  const t = state.tree;
  if (!t) tree = h('p', { class: 'empty' }, 'loading the tree…');
  else if (t.error) tree = h('p', { class: 'error' }, t.error);
  else tree = state.treeEl || (state.treeEl = buildTree(t));
  fill(el, h('h2', null, 'Claims on the tree'), h('div', { class: 'filters' }, h('span', { class: 'muted' }, top), pick),
    claims, editing, tree);
}

function buildTree(t) {
  // Folders as nested maps; a folder's content is built when it is opened.
  const root = { dirs: new Map(), files: [], claimed: 0 };
  for (const f of t.files) {
    const parts = f.path.split('/');
    let d = root;
    if (f.claims && f.claims.length) root.claimed++;
    for (const p of parts.slice(0, -1)) {
      if (!d.dirs.has(p)) d.dirs.set(p, { dirs: new Map(), files: [], claimed: 0 });
      d = d.dirs.get(p);
      if (f.claims && f.claims.length) d.claimed++;
    }
    d.files.push({ name: parts[parts.length - 1], file: f });
  }
  const box = h('div', { class: 'tree' });
  fillDir(box, root, '');
  if (t.truncated) box.append(h('div', { class: 'muted small' }, 'The tree is cut at ' + t.files.length + ' files.'));
  return box;
}

function fillDir(el, d, prefix) {
  for (const [name, sub] of [...d.dirs].sort((a, b) => a[0].localeCompare(b[0]))) {
    const path = prefix + name + '/';
    const det = h('details', { dataset: { dir: path } },
      h('summary', { class: sub.claimed ? 'claimed' : '' }, name + '/',
        sub.claimed ? h('span', { class: 'on' }, sub.claimed + ' claimed') : null));
    let built = false;
    det.addEventListener('toggle', () => {
      if (det.open) state.openDirs.add(path); else state.openDirs.delete(path);
      if (det.open && !built) { built = true; fillDir(det, sub, path); }
    });
    det.open = state.openDirs.has(path) || (sub.claimed > 0 && !state.closedOnce.has(path));
    if (sub.claimed) state.closedOnce.add(path); // opened for its claims once; then as the person leaves it
    el.append(det);
  }
  for (const { name, file } of d.files) el.append(fileLine(name, file));
}

function fileLine(name, f) {
  const claims = (f.claims || []).map(claimById).filter(Boolean);
  const edits = f.edits || [];
  return h('div', { class: 'file' + (claims.length ? ' claimed' : ''), dataset: { path: f.path } }, name,
    claims.map(c => h('span', { class: 'on' + (c.lease ? ' lease' : '') }, h('span', { class: 'who' }, c.label || c.owner),
      c.lease ? ' editing it (lease)' : c.task ? ' for ' + words(c.task) : '', ' · ', ago(c.created), ' · ', until(c.ends),
      c.machine ? ' · on ' + c.machine : '')),
    edits.length ? h('span', { class: 'on' }, 'edited by ', edits.slice(0, 3).map(e => e.label || e.agent).join(', '),
      ' ', ago(edits[0].at)) : null);
}

// ---- the log -----------------------------------------------------------

function logQuery(before) {
  const f = state.filter;
  const q = new URLSearchParams({ n: '50' });
  if (before) q.set('before', before);
  for (const k of ['kind', 'agent', 'path', 'q']) if (f[k]) q.set(k, f[k]);
  if (f.all) q.set('all', '1');
  return '/api/log?' + q;
}

function filtered() {
  const f = state.filter;
  return !!(f.kind || f.agent || f.path || f.q);
}

async function loadLog() {
  const page = await api(logQuery());
  state.entries = [];
  state.byId = new Map();
  if (page.tail) state.tail = page.tail;
  addOlder(page);
  return page;
}

function addOlder(page) {
  for (const e of page.entries) {
    if (state.byId.has(e.id)) continue;
    state.byId.set(e.id, e);
    state.entries.push(e);
  }
  state.more = page.more;
  if (state.board) renderLog();
}

// live adds entries appended to the log, oldest first, to the log's view
// (shown or not, so that each is on the page as soon as it is read).
let refetch = null;
function live(entries) {
  if (state.plan && entries.some(e => e.kind === 'plan')) loadPlan();
  if (filtered()) {
    // The server filters (paths, words); read the first page again.
    clearTimeout(refetch);
    refetch = setTimeout(() => loadLog().catch(() => {}), 200);
    return;
  }
  const list = $('entries');
  for (const e of entries) {
    if (state.byId.has(e.id)) continue;
    if (e.kind === 'supersede' && e.supersedes && !state.filter.all) {
      const old = state.byId.get(e.supersedes);
      if (old) {
        state.entries = state.entries.filter(x => x !== old);
        state.byId.delete(old.id);
        const node = document.getElementById('e-' + old.id);
        if (node) node.remove();
      }
    }
    state.byId.set(e.id, e);
    state.entries.unshift(e);
    if (list) {
      if (list.firstChild && list.firstChild.classList.contains('empty')) list.replaceChildren();
      list.prepend(entryView(e));
    }
  }
  // A page open for days keeps the newest entries; older ones are a click away.
  while (state.entries.length > maxEntries) {
    const old = state.entries.pop();
    state.byId.delete(old.id);
    const node = document.getElementById('e-' + old.id);
    if (node) node.remove();
    state.more = true;
  }
  if (!list) renderLog();
}
const maxEntries = 1000;

function entryView(e) {
  const cls = ['entry', e.kind, e.superseded_by ? 'superseded' : ''].join(' ');
  const stale = (e.stale || []).map((s, i) => h('div', { class: 'stale' },
    (e.stale_why && e.stale_why[i]) || '⚠stale: ' + s.path + ' changed'));
  const el = h('article', { class: cls, id: 'e-' + e.id, dataset: { id: e.id } },
    h('div', { class: 'head' }, h('span', { class: 'kind' }, e.kind + (e.ask ? ' (question)' : '') + (e.retired ? ' (retires)' : '')),
      h('span', null, e.label || label(e.agent)),
      e.to_labels ? h('span', null, '→ ', e.to_labels.join(', ')) : null,
      e.claim && e.claim.length ? h('span', null, 'claim ', e.claim.join(', ')) : null,
      h('span', { title: when(e.at) }, ago(e.at)), h('span', { class: 'small' }, e.id)),
    e.text ? h('div', { class: 'text' }, words(e.text)) : null,
    e.supersedes ? h('div', { class: 'small muted' }, (e.retired ? 'retires ' : 'replaces ') + e.supersedes) : null,
    e.superseded_by ? h('div', { class: 'small muted' }, 'superseded by ' + e.superseded_by) : null,
    (e.evidence || []).length ? h('div', { class: 'evidence' }, e.evidence.map(v => v.path + (v.line ? ':' + v.line : '')).join('  ')) : null,
    stale,
    e.diff ? diffView(e.diff) : null,
    e.superseded_by || e.kind === 'supersede' ? null : actions(['Supersede', supersedeForm(e.id, false)], ['Retire', supersedeForm(e.id, true)]));
  if (!(e.id in window.lucidSeen)) window.lucidSeen[e.id] = Date.now();
  return el;
}

function supersedeForm(id, retire) {
  return close => {
    const text = h('input', { type: 'text', name: 'text', placeholder: retire ? 'why it no longer holds' : 'what holds now' });
    return actionForm([text], retire ? 'Retire' : 'Supersede', () => api('/api/supersede', { id, text: text.value, retire }), close);
  };
}

function diffView(diff) {
  return h('pre', { class: 'diff' }, diff.replace(/\n+$/, '').split('\n').map(l =>
    h('span', { class: l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : '' }, l + '\n')));
}

let logControls = null;
function renderLog() {
  const el = $('view-log');
  if (!logControls) logControls = buildLogControls();
  const list = state.entries.length ? state.entries.map(entryView)
    : h('p', { class: 'empty' }, filtered() ? 'No entry matches.' : 'The log is empty.');
  const older = state.more && !state.filter.q ? h('button', {
    type: 'button', class: 'act', id: 'older',
    onclick: async () => {
      const last = state.entries[state.entries.length - 1];
      try { addOlder(await api(logQuery(last && last.id))); } catch (e) { toast('The log: ' + e.message); }
    },
  }, 'older') : null;
  fill(el, logControls, h('div', { id: 'entries' }, list), older);
}

function buildLogControls() {
  const f = state.filter;
  const kind = h('select', { name: 'kind' }, ['', 'fact', 'decision', 'dead-end', 'note', 'plan', 'violation',
    'message', 'handoff', 'release', 'supersede', 'dream'].map(k => h('option', { value: k }, k || 'every kind')));
  const agent = h('input', { type: 'text', name: 'agent', placeholder: 'agent', size: 12 });
  const path = h('input', { type: 'text', name: 'path', placeholder: 'path or glob', size: 14 });
  const q = h('input', { type: 'search', name: 'q', placeholder: 'words' });
  const all = h('input', { type: 'checkbox', name: 'all' });
  const apply = () => {
    Object.assign(f, { kind: kind.value, agent: agent.value.trim(), path: path.value.trim(), q: q.value.trim(), all: all.checked });
    loadLog().catch(e => toast('The log: ' + e.message));
  };
  const filters = h('form', { class: 'filters', onsubmit: ev => { ev.preventDefault(); apply(); } },
    kind, agent, path, q, h('label', { class: 'small' }, all, ' show superseded'),
    h('button', { type: 'submit', class: 'act' }, 'Filter'));
  kind.addEventListener('change', apply);
  all.addEventListener('change', apply);
  let record = null;
  if (!state.readOnly) {
    const rk = h('select', { name: 'record-kind' }, ['note', 'fact', 'decision', 'dead-end'].map(k => h('option', { value: k }, k)));
    const text = h('input', { type: 'text', name: 'record-text', placeholder: 'record for the agents' });
    record = actionForm([rk, text], 'Record', () => api('/api/record', { kind: rk.value, text: text.value }), () => { text.value = ''; });
  }
  return h('div', null, h('h2', null, 'Log'), filters, record);
}

// ---- the plan ----------------------------------------------------------

// loadPlan reads the plan; drawn at once when asked (force), else unless
// the person is editing it.
async function loadPlan(force) {
  try { state.plan = await api('/api/plan'); } catch (e) { state.plan = { error: e.message }; }
  if (state.view === 'plan' && (force || !editing('plan'))) renderPlan();
}

// planText renders the plan's markdown as blocks of text: headings, lists,
// code and paragraphs; no markup of the text itself.
function planText(text) {
  const out = h('div', { class: 'plan-text' });
  let list = null, para = null, code = null;
  const flush = () => { list = null; para = null; };
  for (const line of text.split('\n')) {
    if (code) {
      if (line.startsWith('```')) { code = null; continue; }
      code.append(line + '\n');
      continue;
    }
    if (line.startsWith('```')) { flush(); code = h('pre'); out.append(code); continue; }
    const head = /^(#{1,6})\s+(.*)$/.exec(line);
    if (head) { flush(); out.append(h('h' + Math.min(head[1].length + 2, 6), null, head[2])); continue; }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      para = null;
      if (!list) { list = h('ul'); out.append(list); }
      list.append(h('li', null, item[1]));
      continue;
    }
    if (!line.trim()) { flush(); continue; }
    list = null;
    if (!para) { para = h('p'); out.append(para); para.append(clean(line)); } else para.append('\n' + clean(line));
  }
  return out;
}

function renderPlan() {
  const el = $('view-plan');
  const p = state.plan;
  if (!p) return fill(el, h('h2', null, 'Plan'), h('p', { class: 'empty' }, 'loading…'));
  if (p.error) return fill(el, h('h2', null, 'Plan'), h('p', { class: 'error' }, p.error));
  const editor = h('div', { class: 'holder' });
  const edit = state.readOnly ? null : h('button', {
    type: 'button', class: 'act', onclick: () => toggle(editor, close => {
      const text = h('textarea', { name: 'plan', rows: 16 });
      text.value = p.text;
      const base = p.hash;
      const reload = h('button', { type: 'button', class: 'act', onclick: () => loadPlan(true) }, 'Reload the plan');
      return actionForm([text, reload], 'Save the plan', () => api('/api/plan', { text: text.value, base }),
        () => { close(); loadPlan(true); });
    }),
  }, 'Edit the plan');
  const history = (p.history || []).map(e => h('div', { class: 'entry plan' },
    h('div', { class: 'head' }, h('span', { class: 'kind' }, 'plan'), h('span', null, e.label || label(e.agent)),
      h('span', { title: when(e.at) }, ago(e.at))),
    e.text ? h('div', { class: 'text' }, words(e.text)) : null, e.diff ? diffView(e.diff) : null));
  fill(el, h('h2', null, 'Plan'), edit, editor, p.text.trim() ? planText(p.text) : h('p', { class: 'empty' }, 'The plan is empty.'),
    h('h3', null, 'Changes'), history.length ? history : h('p', { class: 'empty' }, 'No change recorded.'));
}

// ---- notices -----------------------------------------------------------

function notices(b, first) {
  const fresh = (b.notices || []).filter(n => !state.noticeIds.has(n.id));
  for (const n of fresh) {
    state.noticeIds.add(n.id);
    state.notices.unshift(n);
    if (first) continue; // known before the page opened: listed, not announced
    if (n.kind === 'stale') staleLater();
    toast(noticeText(n));
    if ('Notification' in window && Notification.permission === 'granted') {
      try { new Notification('lucid: ' + n.kind, { body: clean(noticeText(n)), tag: n.id }); } catch { /* not where pages may not */ }
    }
  }
  if (fresh.length) state.notices.sort((a, b) => ms(b.at) - ms(a.at));
  $('notice-count').textContent = state.notices.length ? String(state.notices.length) : '';
}

// staleLater reads the log's first page again when a fact went stale, so
// that the entries already on the page are marked (unless the person is
// filling a form there).
let stalling = null;
function staleLater() {
  clearTimeout(stalling);
  stalling = setTimeout(() => { if (!editing('log')) loadLog().catch(() => {}); }, 200);
}

// noticeText is a notice in one sentence: the denied and unreported ones
// say it themselves, the others name whose entry, then its text, fenced.
function noticeText(n) {
  const who = n.label || n.agent || 'an agent';
  switch (n.kind) {
    case 'stale': return who + '’s entry went stale (' + n.path + ' changed): ' + words(n.text);
    case 'violation': return 'a write a claim should have stopped, by ' + who + ': ' + words(n.text);
    default: return n.text;
  }
}

function toast(text) {
  const t = h('div', { class: 'toast', role: 'status' }, text);
  $('toasts').append(t);
  setTimeout(() => t.remove(), 8000);
}

function renderNotices() {
  const el = $('view-notices');
  const allow = 'Notification' in window && Notification.permission === 'default' ? h('button', {
    type: 'button', class: 'act', onclick: () => Notification.requestPermission().then(renderNotices),
  }, 'Allow browser notifications') : null;
  fill(el, h('h2', null, 'Notices'), allow,
    state.notices.length ? state.notices.map(n => h('div', { class: 'notice ' + n.kind, dataset: { notice: n.id } },
      h('div', { class: 'head small muted' }, h('strong', null, n.kind), ' · ', n.label || n.agent || '', ' · ', ago(n.at)),
      h('div', { class: 'text' }, noticeText(n)), n.path ? h('div', { class: 'evidence' }, n.path) : null,
      n.entry ? h('div', { class: 'small muted' }, 'entry ' + n.entry) : null))
      : h('p', { class: 'empty' }, 'Nothing to report.'));
}

// ---- the board and the stream ------------------------------------------

// lucidBoards counts the boards the page was given (for its tests).
window.lucidBoards = 0;

function setBoard(b, first) {
  window.lucidBoards++;
  for (const k of ['agents', 'claims', 'notices']) b[k] = b[k] || [];
  state.board = b;
  state.readOnly = !!b.read_only;
  $('readonly').hidden = !state.readOnly;
  $('top').textContent = clean(b.top);
  document.title = 'lucid · ' + clean(b.top.split(/[\\/]/).pop());
  notices(b, first);
  // Every hook call of every agent moves its last-seen time and its
  // claims' ends, and the board comes again: the view is drawn again only
  // when something else changed, so that it does not move under the
  // person's pointer several times a second. Times move on with the
  // redraw every 15 s, from the newest board.
  const sig = JSON.stringify(b, (k, v) => (k === 'at' || k === 'last_seen' || k === 'ends') ? undefined : v);
  if (!first && sig === state.boardSig) return;
  state.boardSig = sig;
  if (state.view === 'tree') loadTree();
  redraw();
}

// connect follows the server's event stream: entries (appended to the
// log), board, reload (read the log again) and hello. It is read with
// fetch, not EventSource, which cannot send the token in a header. When it
// ends it is opened again from the tail the page has read, unless the
// server refuses the token (it was started again: its page is another).
async function connect() {
  const q = state.tail ? '?tail=' + encodeURIComponent(JSON.stringify(state.tail)) : '';
  try {
    const r = await request('/api/events' + q);
    if (r.status === 401 || r.status === 403) {
      const e = await failure(r);
      $('status').textContent = 'stopped';
      $('status').title = e.message;
      $('status').className = 'status';
      toast(e.message);
      return;
    }
    if (!r.ok) throw await failure(r);
    await readEvents(r.body, streamed);
  } catch { /* the server stopped, or the network: try again */ }
  $('status').textContent = 'reconnecting…';
  $('status').className = 'status';
  setTimeout(connect, 2000);
}

function streamed(name, data) {
  switch (name) {
    case 'hello':
      $('status').textContent = 'live';
      $('status').title = '';
      $('status').className = 'status live';
      break;
    case 'entries': {
      const d = JSON.parse(data);
      state.tail = d.tail;
      live(d.entries);
      break;
    }
    case 'board': setBoard(JSON.parse(data), false); break;
    case 'reload': loadLog().catch(() => {}); if (state.plan) loadPlan(); break;
  }
}

// readEvents reads a stream of Server-Sent Events from body, and calls on
// with each event's name and data, until the stream ends.
async function readEvents(body, on) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value; // lucid's server ends lines with \n alone
    let end;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue; // a comment: the heartbeat
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const v = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'event') name = v;
        else if (field === 'data') data.push(v);
      }
      if (data.length) on(name, data.join('\n'));
    }
  }
}

async function start() {
  for (const b of document.querySelectorAll('#nav button')) {
    b.addEventListener('click', () => { location.hash = b.dataset.view; });
  }
  window.addEventListener('hashchange', () => show(location.hash.slice(1)));
  state.view = views[location.hash.slice(1)] ? location.hash.slice(1) : 'agents';
  try {
    const [b] = await Promise.all([api('/api/board'), loadLog()]);
    setBoard(b, true);
    show(state.view);
    if (state.view !== 'log') renderLog();
    performance.mark('lucid-first-data');
  } catch (e) {
    fill($('view-' + state.view), h('p', { class: 'error' }, e.message));
    $('view-' + state.view).hidden = false;
  }
  connect();
  setInterval(redraw, 15000);
}

start();
