// The class table page (dungeon_guilds/app/table_server.py). It draws only what the server sends
// for this page's seat and sends clicks as the engine's move text; no rule is decided here.
(function () {
  'use strict';
  const body = document.body;
  const TEXTS = JSON.parse(body.dataset.texts);
  const SEATS_KEY = 'dg-table-seats';      // {CODE: seat token} kept by this browser
  const $ = (id) => document.getElementById(id);
  let lang = localStorage.getItem('dg-lang') || ((navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en');
  let ws = null, last = null, code = null, retry = 500, deckText = null, deckName = null, lordText = null, lordName = null;
  let levelChoice = {}, levelKey = '';     // the opener's pick {seat number: level} for each free seat
  let leaving = null;                     // Leave pressed: back to the lobby once the server says left
  let chosen = [], base = {}, targets = {}; // the adventurers this page picked; the board's cells as sent
  // the version this page's last move was made on: once the table has moved past it, the pick is
  // spent (an adventurer bumped back to the hand later is not picked again by itself)
  let spent = null;
  // a student's review of their own seat at game over (issue 50, item 4): asked again until ready
  let reviewAsked = false, reviewTimer = null;
  // several server processes (issue 52: data-route): the socket names its table (?table=CODE) so
  // that every page of one table is served by one process; a page that learns its table on a
  // socket naming none (open, join) moves to a socket naming it
  const ROUTE = body.dataset.route === '1';
  let routed = null, moving = false;

  const tr = (key) => (TEXTS[lang] && TEXTS[lang][key]) || TEXTS.en[key] || key;
  const tokens = () => { try { return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}'); } catch (e) { return {}; } };
  function keep(c, token) { const t = tokens(); t[c] = token; localStorage.setItem(SEATS_KEY, JSON.stringify(t)); }
  function forget(c) { const t = tokens(); delete t[c]; localStorage.setItem(SEATS_KEY, JSON.stringify(t)); }
  function pathCode() {
    const m = location.pathname.match(/\/tables\/([A-Za-z0-9]{4,12})\/?$/);
    return m ? m[1].toUpperCase() : null;
  }

  function applyTexts() {
    document.documentElement.lang = lang === 'zh' ? 'zh-Hant' : 'en';
    document.title = tr('title');
    document.querySelectorAll('[data-t]').forEach((el) => { el.textContent = tr(el.dataset.t); });
    $('deck-line').textContent = tr('deck_line').replace('{name}', deckName || tr('deck_reference'));
    $('lord-line').textContent = tr('lord_line').replace('{name}', lordName || tr('lord_drawn'));
    $('lang').textContent = tr('lang_button');
    $('lang').lang = lang === 'zh' ? 'en' : 'zh-Hant';
  }

  function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
  function say(text) { $('message').textContent = text || ''; }

  function showLobby() {
    $('lobby').hidden = false; $('table').hidden = true; $('connecting').hidden = true;
    const c = pathCode();
    if (c) $('code').value = c;
  }

  function showLevels(msg) {  // the opener picks each free seat's opponent (the server sends the levels)
    const free = msg.levels ? msg.seats.filter((s) => s.kind === 'open') : [];
    $('levels').hidden = !free.length;
    const key = lang + ':' + free.map((s) => s.seat).join(',');
    if (!free.length || key === levelKey) return;
    levelKey = key;
    $('level-list').innerHTML = '';
    free.forEach((s) => {
      const label = document.createElement('label');
      const sel = document.createElement('select');
      sel.dataset.seat = s.seat;
      msg.levels.forEach((l) => { const o = document.createElement('option'); o.value = l.id; o.textContent = l.label; sel.appendChild(o); });
      sel.value = levelChoice[s.seat] || msg.level_default;
      sel.addEventListener('change', () => { levelChoice[s.seat] = sel.value; });
      label.append(tr('level_for').replace('{seat}', s.seat) + ' ', sel);
      $('level-list').appendChild(label);
    });
  }

  function render(msg) {
    last = msg;
    $('lobby').hidden = true; $('table').hidden = false; $('connecting').hidden = true;
    $('code-line').textContent = tr('code_line').replace('{code}', msg.code);
    // the server's LAN address when this page was opened on the server's own computer (issue 37)
    const link = (body.dataset.share || location.origin) + location.pathname.replace(/\/tables(\/.*)?$/, '/tables/' + msg.code);
    $('link').textContent = link; $('link').href = link;
    $('bots').hidden = !(msg.opener && !msg.started);
    showLevels(msg);
    $('status').textContent = msg.status;
    const hadFocus = focused();
    $('board').innerHTML = msg.board;
    targets = msg.targets; base = {};
    if (spent !== null && msg.version > spent) { chosen = []; spent = null; }  // this page's move played: its pick is spent
    $('board').querySelectorAll('[data-cell]').forEach((el) => { base[el.dataset.cell] = el.innerHTML; });
    show(chosen);  // a classmate's move keeps this page's pick while it is still a choice
    refocus(hadFocus);
    $('seat-list').innerHTML = '';
    msg.seats.forEach((s) => {
      const li = document.createElement('li');
      li.textContent = s.label + ' — ' + s.state + (s.you ? ' (' + tr('you') + ')' : '');
      if (s.you) li.className = 'you';
      $('seat-list').appendChild(li);
    });
    const r = msg.resolving;  // a round shown resolving on the board, step by step (issue 24)
    const upto = r ? r.step + 1 : msg.story.length;
    $('story').innerHTML = msg.story.slice(0, upto).map((s, i) =>
      '<li' + (r && i === r.step ? ' class="now"' : '') + '>' + s + '</li>').join('');
    $('story-part').hidden = !msg.story.length;
    $('story-buttons').hidden = !r;
    if (r) {
      $('story-prev').disabled = r.step <= 0;
      $('story-next').disabled = r.step >= r.steps - 1;
      $('continue').textContent = tr(r.over ? 'continue_over' : 'continue');
      $('continue').disabled = r.ready;
    }
    $('log').innerHTML = msg.log;
    $('review-part').hidden = !(msg.over && !r);  // at game over, once the last round was shown
  }

  function askReview() {
    clearTimeout(reviewTimer);
    reviewAsked = true;
    send({ op: 'review' });
  }
  function showReview(msg) {  // the server's words and, once ready, the lesson (its HTML, escaped there)
    $('review-status').textContent = msg.text || '';
    $('review').innerHTML = msg.html || '';
    if (msg.status === 'queued' || msg.status === 'running') reviewTimer = setTimeout(askReview, 3000);
  }
  function saveRecord(msg) {  // the game's record as a file (the project's JSON record)
    const blob = new Blob([JSON.stringify(msg.record, null, 1)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'dungeon-guilds-' + msg.code + '-seat-' + msg.seat + '.json';
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  function focused() {
    const el = document.activeElement;
    return el && el.dataset ? el.dataset.target : null;
  }
  function refocus(id) {
    const again = id && $('board').querySelector('[data-target="' + id + '"]');
    if (again) again.focus();
  }

  // Picking an adventurer happens here (issue 37): the server sent, for each choice of this
  // seat's hand, the board's cells drawn for it and the moves it allows; only the move goes back.
  // What a click on a card makes of the choice is the server's (the table model's next_choice,
  // sent as each choice's "next"): the pair of the setup, one adventurer in the dispatch.
  function pick(strength) {
    const picks = last.picks || {};
    const now = picks[chosen.slice().sort((a, b) => a - b).join(',')] || picks[''] || {};
    const next = (now.next || {})[String(strength)];
    const hadFocus = focused();
    show(next ? next.split(',').map(Number) : []);
    refocus(hadFocus);
  }

  function show(pickNow) {  // the board's cells for this choice of the hand (none: as sent)
    const choice = (last.picks || {})[pickNow.slice().sort((a, b) => a - b).join(',')];
    chosen = choice ? pickNow : [];
    $('board').querySelectorAll('[data-cell]').forEach((el) => {
      const cell = el.dataset.cell;
      const html = choice && cell in choice.cells ? choice.cells[cell] : base[cell];
      if (el.innerHTML !== html) el.innerHTML = html;
    });
    targets = Object.assign({}, last.targets, choice ? choice.targets : {});
  }

  function click(el) {
    if (!last) return;
    const id = el.dataset.target;
    if (id.startsWith('hand-')) { pick(Number(id.slice(5))); return; }
    const t = targets[id];
    if (t && t.action) { say(''); spent = last.version; send({ op: 'act', action: t.action, version: last.version }); }
    else say(el.getAttribute('aria-label'));
  }

  // A state message carries only the board's and the log's pieces that changed since this
  // socket's last one ({n, put: [[index, piece], ...]}, app/tables/pieces.py): put them, cut or
  // grow to n, join.
  function applyPieces(pieces, change) {
    pieces.length = change.n;
    change.put.forEach(([i, piece]) => { pieces[i] = piece; });
    return pieces.join('');
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss://' : 'ws://';
    routed = ROUTE ? (pathCode() || localStorage.getItem('dg-table-current')) : null;
    ws = new WebSocket(proto + location.host + body.dataset.ws + (routed ? '?table=' + encodeURIComponent(routed) : ''));
    const held = { board: [], log: [] };  // what this socket was sent, in pieces (a new one is sent all)
    ws.onopen = () => {
      retry = 500; say('');
      send({ op: 'lang', lang: lang });
      const c = pathCode() || localStorage.getItem('dg-table-current');
      const token = c && tokens()[c];
      if (token) send({ op: 'resume', code: c, token: token }); else showLobby();
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.op === 'seat') {
        code = msg.code;
        if (msg.token) keep(code, msg.token);
        localStorage.setItem('dg-table-current', code);
        if (pathCode() !== code) history.replaceState(null, '', location.pathname.replace(/\/tables(\/.*)?$/, '/tables/' + code));
        if (ROUTE && routed !== code) { moving = true; ws.close(); }  // to the process serving this table
      } else if (msg.op === 'state') {
        msg.board = applyPieces(held.board, msg.board);
        msg.log = applyPieces(held.log, msg.log);
        render(msg);
      } else if (msg.op === 'review') {
        showReview(msg);
      } else if (msg.op === 'record') {
        saveRecord(msg);
      } else if (msg.op === 'left') {
        if (leaving) leaving();
      } else if (msg.op === 'refused') {
        say(msg.reason);
        if (msg.code === 'bad_token' || (msg.code === 'no_such_table' && !last)) {
          const c = pathCode() || localStorage.getItem('dg-table-current');
          if (c) forget(c);
          localStorage.removeItem('dg-table-current');
          showLobby();
        }
      }
    };
    ws.onclose = () => {
      if (moving) { moving = false; connect(); return; }
      if (!$('table').hidden) say(tr('lost'));
      setTimeout(connect, retry); retry = Math.min(retry * 2, 8000);
    };
  }

  $('lang').addEventListener('click', () => {
    lang = lang === 'zh' ? 'en' : 'zh'; localStorage.setItem('dg-lang', lang); applyTexts(); say('');
    send({ op: 'lang', lang: lang });
    if (reviewAsked) askReview();  // the review again in the new language (kept in both)
  });
  $('join-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const c = $('code').value.trim().toUpperCase();
    const token = tokens()[c];
    if (token) send({ op: 'resume', code: c, token: token });  // one seat per browser per table
    else send({ op: 'join', code: c, name: $('name').value });
  });
  $('open-form').addEventListener('submit', (e) => {
    e.preventDefault();
    send({ op: 'open', seats: Number($('seats').value), name: $('name').value, deck: deckText,
      deck_format: deckName && deckName.toLowerCase().endsWith('.csv') ? 'csv' : 'toml', lord: lordText,
      rules: { lords: $('lords').value, edition: $('edition').value, teams: $('teams').value || null, npc: $('npc').checked } });
  });
  $('deck').addEventListener('change', () => {
    const f = $('deck').files[0];
    if (!f) { deckText = null; deckName = null; applyTexts(); return; }
    f.text().then((text) => { deckText = text; deckName = f.name; applyTexts(); });
  });
  $('lord').addEventListener('change', () => {
    const f = $('lord').files[0];
    if (!f) { lordText = null; lordName = null; applyTexts(); return; }
    f.text().then((text) => { lordText = text; lordName = f.name; applyTexts(); });
  });
  $('bots').addEventListener('click', () => {
    const levels = {};
    $('level-list').querySelectorAll('select').forEach((sel) => { levels[sel.dataset.seat] = sel.value; });
    send({ op: 'bots', levels: levels });
  });
  $('story-prev').addEventListener('click', () => { if (last && last.resolving) send({ op: 'step', step: last.resolving.step - 1 }); });
  $('story-next').addEventListener('click', () => { if (last && last.resolving) send({ op: 'step', step: last.resolving.step + 1 }); });
  $('continue').addEventListener('click', () => send({ op: 'continue' }));
  $('review-mine').addEventListener('click', askReview);
  $('record-mine').addEventListener('click', () => send({ op: 'record' }));
  $('leave').addEventListener('click', () => {
    const go = () => {
      if (code) forget(code);
      localStorage.removeItem('dg-table-current');
      location.href = location.pathname.replace(/\/tables(\/.*)?$/, '/tables');
    };
    if (!ws || ws.readyState !== 1 || !code) { go(); return; }
    leaving = go;  // the server frees this device's table slot first (its answer: left), then the lobby
    send({ op: 'leave' });
    setTimeout(go, 1500);
  });
  $('board').addEventListener('click', (e) => {
    const el = e.target.closest('[data-target]');
    if (el) click(el);
  });
  // Enter / Space and the arrow keys: the board's keyboard module, shared with the widget board
  import('./board_keys.js').then((keys) => keys.listenBoardKeys($('board'), click));
  applyTexts();
  connect();
})();
