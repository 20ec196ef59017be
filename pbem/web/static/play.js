/*
 * The turn page, made quicker with a little plain JavaScript (no framework, no build step, no inline code).
 *
 * Without this file the page still works: the form lists every legal move and asks to confirm each.
 * With it: tap a card in your hand and the places it can go light up (cells for a path card, with a
 * "turn it around" button; players for broken tools and repairs; goals for a map; cards for a rockfall);
 * tap one, confirm, and the same form is posted. The moves come from state.json, which lists only the
 * engine's legal moves with their labels; the server judges every move again.
 * Saboteur 2 adds: actions on players (the players light up), a Theft laid before yourself (confirm at
 * once), a pass of one to three cards (tick cards in your hand), two discards to remove a card in front of
 * you (tick two, then the cards you may remove light up) and, after a round, a steal (players light up).
 */
(function () {
  "use strict";

  var table = document.getElementById("table");
  if (!table) { return; }
  var SVG = "http://www.w3.org/2000/svg";
  var csrf = table.getAttribute("data-csrf");
  var pageSeq = table.getAttribute("data-seq");

  // Every word this script shows comes from the page, in the reader's language (words.js).
  var say = window.PbemWords.say;
  var counted = window.PbemWords.counted;

  function post(url) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf, "Accept": "application/json" }
    });
  }

  function getState() {
    return fetch(table.getAttribute("data-state-url"), {
      credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) { throw new Error("state " + response.status); }
      return response.json();
    });
  }

  // A visit is recorded by a POST from here, never by opening the link (mail scanners open links too).
  var seen = post(table.getAttribute("data-seen-url")).catch(function () {});

  // Tests (and curious readers) can tell when the script has finished setting the page up and has no
  // request of its own still under way.
  function ready() { seen.then(function () { table.setAttribute("data-script", "ready"); }); }

  var zoom = setUpZoom();
  setUpCardHelp();
  offerDeviceZone();
  rememberRoundSeen();
  var form = document.getElementById("move-form");
  if (!form) {
    waitForChanges();
    ready();
    return;
  }

  // While someone else is to play, look for news now and then and redraw the table when it changes
  // (every few seconds while a computer player is to play: it moves within seconds).
  function waitForChanges() {
    if (table.getAttribute("data-active") !== "yes") { return; }
    var seconds = Number(table.getAttribute("data-poll-seconds")) || 20;
    window.setInterval(function () {
      if (document.visibilityState !== "visible") { return; }
      getState().then(function (state) {
        if (String(state.seq) !== pageSeq) { window.location.reload(); }
      }).catch(function () {});
    }, seconds * 1000);
  }

  // The board's zoom: + and - buttons, and a pinch with two fingers. Scale 1 fits the board to the page; each
  // step makes a cell larger, so that a lit place can be made a comfortable size to tap (44 px and more).
  function setUpZoom() {
    var wrap = document.getElementById("board-wrap");
    var bar = document.getElementById("board-zoom");
    var svg = wrap ? wrap.querySelector("svg.board") : null;
    if (!wrap || !bar || !svg) { return { follow: function () {} }; }
    var scale = 1;
    var STEP = 1.4;
    bar.hidden = false;
    function cellPixels() {
      var box = svg.getBoundingClientRect();
      var view = svg.viewBox.baseVal;
      return view && view.width ? box.width * Number(svg.getAttribute("data-cell-w")) / view.width : 0;
    }
    function most() {  // never more than a cell of about 120 px
      var now = cellPixels();
      return now ? Math.max(1, scale * 120 / now) : 4;
    }
    function apply(next) {
      scale = Math.min(Math.max(next, 1), most());
      svg.classList.toggle("zoomed", scale > 1);
      svg.style.width = scale > 1 ? Math.round(wrap.clientWidth * scale) + "px" : "";
      bar.querySelector("[data-zoom=out]").disabled = scale <= 1;
      bar.querySelector("[data-zoom=fit]").disabled = scale <= 1;
      follow();
    }
    // Keep the lit places (or the last card played) in the middle of the board's window.
    function follow() {
      var lit = svg.querySelectorAll(".targets .target");
      var marks = lit.length ? lit : svg.querySelectorAll(".last-marker");
      if (!marks.length || scale <= 1) { return; }
      var outer = wrap.getBoundingClientRect();
      var left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
      Array.prototype.forEach.call(marks, function (mark) {
        var box = mark.getBoundingClientRect();
        left = Math.min(left, box.left); top = Math.min(top, box.top);
        right = Math.max(right, box.right); bottom = Math.max(bottom, box.bottom);
      });
      wrap.scrollLeft += (left + right) / 2 - (outer.left + outer.right) / 2;
      wrap.scrollTop += (top + bottom) / 2 - (outer.top + outer.bottom) / 2;
    }
    bar.addEventListener("click", function (event) {
      var which = event.target.getAttribute("data-zoom");
      if (which === "in") { apply(scale * STEP); }
      if (which === "out") { apply(scale / STEP); }
      if (which === "fit") { apply(1); }
    });
    // Two fingers on the board zoom it; one finger scrolls it as usual.
    var touches = {};
    var pinchFrom = null;
    function spread() {
      var points = Object.keys(touches).map(function (k) { return touches[k]; });
      return points.length === 2 ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : null;
    }
    wrap.addEventListener("pointerdown", function (event) {
      if (event.pointerType !== "touch") { return; }
      touches[event.pointerId] = { x: event.clientX, y: event.clientY };
      var distance = spread();
      if (distance) { pinchFrom = { distance: distance, scale: scale }; }
    });
    wrap.addEventListener("pointermove", function (event) {
      if (!(event.pointerId in touches)) { return; }
      touches[event.pointerId] = { x: event.clientX, y: event.clientY };
      var distance = spread();
      if (pinchFrom && distance) { apply(pinchFrom.scale * distance / pinchFrom.distance); }
    });
    function lift(event) { delete touches[event.pointerId]; if (spread() === null) { pinchFrom = null; } }
    wrap.addEventListener("pointerup", lift);
    wrap.addEventListener("pointercancel", lift);
    apply(1);
    return { follow: follow, apply: apply };
  }

  // The "?" on a card in the hand opens a line on what the card does; the card itself stays untouched (choosing
  // it is a tap anywhere else on it).
  function setUpCardHelp() {
    var buttons = Array.prototype.slice.call(document.querySelectorAll(".card-help"));
    function show(button, open) {
      var text = document.getElementById(button.getAttribute("aria-controls"));
      button.setAttribute("aria-expanded", open ? "true" : "false");
      if (text) { text.hidden = !open; }
    }
    buttons.forEach(function (button) {
      button.addEventListener("click", function (event) {
        event.stopPropagation();
        var open = button.getAttribute("aria-expanded") !== "true";
        buttons.forEach(function (other) { show(other, false); });
        show(button, open);
      });
      button.addEventListener("keydown", function (event) {
        if (event.key === "Escape") { show(button, false); }
        event.stopPropagation();
      });
    });
    document.addEventListener("click", function () { buttons.forEach(function (b) { show(b, false); }); });
  }

  // Offer the device's own time zone when the page shows times in another (unless the player chose to keep it).
  function offerDeviceZone() {
    var offer = document.getElementById("zone-offer");
    var device = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!offer || !device) { return; }
    var shown = offer.getAttribute("data-zone");
    var kept = window.localStorage ? window.localStorage.getItem("pbem-zone-kept") : null;
    if (device === shown || kept === shown + ">" + device) { return; }
    offer.querySelector("input[name=timezone]").value = device;
    offer.querySelector(".zone-offer-name").textContent = device;
    offer.querySelector("[data-action=keep-zone]").addEventListener("click", function () {
      if (window.localStorage) { window.localStorage.setItem("pbem-zone-kept", shown + ">" + device); }
      offer.hidden = true;
    });
    offer.hidden = false;
  }

  // The "Round N is over" panel stays open until the player has looked at it once, then folds away.
  function rememberRoundSeen() {
    var panel = document.getElementById("round-over");
    if (!panel || !window.localStorage) { return; }
    var key = "pbem-round-seen-" + panel.getAttribute("data-round-key");
    var button = panel.querySelector("[data-action=round-seen]");
    if (window.localStorage.getItem(key) && button) { panel.removeAttribute("open"); }
    function seenIt() { window.localStorage.setItem(key, "yes"); }
    panel.addEventListener("toggle", function () { if (!panel.open) { seenIt(); } });
    if (button) {
      button.addEventListener("click", function () { seenIt(); panel.removeAttribute("open"); });
    }
  }

  // Bring every lit player onto the screen at once (on a phone they lie below the hand).
  function reveal(elements) {
    if (!elements.length) { return; }
    var top = Infinity, bottom = -Infinity;
    elements.forEach(function (element) {
      var box = element.getBoundingClientRect();
      top = Math.min(top, box.top); bottom = Math.max(bottom, box.bottom);
    });
    var room = window.innerHeight;
    if (top >= 0 && bottom <= room) { return; }
    var by = bottom - top <= room - 16 ? bottom - room + 16 : top - 8;
    if (top - by < 0) { by = top - 8; }
    window.scrollBy(0, by);
  }

  var board = document.querySelector("#board-wrap svg.board");
  var targetsLayer = board ? board.querySelector(".targets") : null;
  var hint = document.getElementById("hint");
  var controls = document.getElementById("card-controls");
  var confirmBar = document.getElementById("confirm-bar");
  var confirmText = document.getElementById("confirm-text");
  var confirmActions = document.getElementById("confirm-actions");
  var moveList = document.getElementById("move-list");
  var handCards = Array.prototype.slice.call(document.querySelectorAll(".hand-card[data-card]"));
  var seats = Array.prototype.slice.call(document.querySelectorAll(".seat[data-seat]"));

  var choices = [];
  var selected = null;   // card id
  var rotated = false;
  var mode = null;       // null, "pass" or "clear": cards are being ticked in the hand
  var ticked = [];       // card ids ticked in that mode

  getState().then(function (state) {
    if (String(state.seq) !== pageSeq) { return; }  // the page is already out of date: the form will say so
    choices = state.choices;
    setUp();
  }).catch(function () { /* the plain form keeps working */ }).then(ready);

  function setUp() {
    var steals = choices.filter(function (c) { return c.move.type === "steal"; });
    if (steals.length) { lightSteals(steals); }
    if (moveList) { moveList.removeAttribute("open"); }
    if (hint) { hint.textContent = say("hint_start"); }
    handCards.forEach(function (card) {
      var id = Number(card.getAttribute("data-card"));
      if (!choices.some(function (c) { return cardOf(c.move) === id; })) { return; }
      var face = faceOf(card);
      card.classList.add("choosable");
      face.setAttribute("role", "button");
      face.setAttribute("tabindex", "0");
      face.setAttribute("aria-pressed", "false");  // named by its label (and why it can only be discarded)
      onActivate(card, function () { if (mode) { tick(id); } else { select(id); } });
    });
    if (controls) {
      controls.addEventListener("click", function (event) {
        var action = event.target.getAttribute("data-action");
        if (action === "rotate") { rotated = !rotated; showTargets(); }
        if (action === "pass" && maxPass() > 1) { startTicking("pass"); }
        if (action === "pass" && maxPass() <= 1) { offer(choices.filter(function (c) { return isPass(c.move) && cardOf(c.move) === selected; })); }
        if (action === "clear") { startTicking("clear"); }
        if (action === "cancel") { reset(); }
      });
    }
    confirmBar.querySelector("[data-action=cancel]").addEventListener("click", function () {
      hideConfirm();
      if (selected === null) { return; }
      if (mode) { reset(); return; }
      showTargets();
    });
    // The buttons of the plain list ask here instead of on a separate page.
    Array.prototype.forEach.call(form.querySelectorAll("button[name=move]"), function (button) {
      button.addEventListener("click", function (event) {
        var choice = choices.filter(function (c) { return c.value === button.value; });
        if (!choice.length) { return; }
        event.preventDefault();
        offer(choice);
      });
    });
  }

  function onActivate(element, action) {
    element.addEventListener("click", action);
    element.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(); }
    });
  }

  function faceOf(card) { return card.querySelector(".card-face") || card; }
  function cardOf(move) { return move.cards ? move.cards[0] : move.card; }
  function usesCard(move, id) { return move.cards ? move.cards.indexOf(id) >= 0 : move.card === id; }
  function sameCards(a, b) { return a.length === b.length && a.every(function (x, i) { return x === b[i]; }); }
  function isSelfPlay(move) { return move.type === "play" && !("x" in move) && !("target" in move); }
  function isPass(move) { return move.type === "pass"; }
  function isPlacement(move) { return move.type === "play" && "rotated" in move; }
  function isCellTarget(move) { return move.type === "play" && "x" in move && !("rotated" in move); }
  function isSeatTarget(move) { return move.type === "play" && "target" in move; }

  function select(id) {
    selected = id;
    rotated = false;
    mode = null;
    ticked = [];
    handCards.forEach(function (card) {
      var on = Number(card.getAttribute("data-card")) === id;
      card.classList.toggle("selected", on);
      faceOf(card).setAttribute("aria-pressed", on ? "true" : "false");
    });
    hideConfirm();
    showTargets();
  }

  function reset() {
    selected = null;
    mode = null;
    ticked = [];
    handCards.forEach(function (card) { card.classList.remove("selected", "ticked"); faceOf(card).setAttribute("aria-pressed", "false"); });
    clearTargets();
    hideConfirm();
    if (controls) { controls.hidden = true; }
    if (hint) { hint.textContent = say("hint_start"); }
  }

  function chosenCard() { return document.querySelector('.hand-card[data-card="' + selected + '"]'); }
  function mine() { return choices.filter(function (c) { return cardOf(c.move) === selected; }); }
  function using(id) { return choices.filter(function (c) { return usesCard(c.move, id); }); }

  function showTargets() {
    clearTargets();
    var own = mine();
    var placements = own.filter(function (c) { return isPlacement(c.move); });
    var turnable = placements.some(function (c) { return c.move.rotated; }) && placements.some(function (c) { return !c.move.rotated; });
    if (placements.length && !placements.some(function (c) { return c.move.rotated === rotated; })) { rotated = !rotated; }
    placements.filter(function (c) { return c.move.rotated === rotated; }).forEach(function (c) { addCellTarget(c.move.x, c.move.y, [c]); });
    own.filter(function (c) { return isCellTarget(c.move); }).forEach(function (c) { addCellTarget(c.move.x, c.move.y, [c]); });
    var bySeat = {};
    own.filter(function (c) { return isSeatTarget(c.move); }).forEach(function (c) {
      (bySeat[c.move.target] = bySeat[c.move.target] || []).push(c);
    });
    Object.keys(bySeat).forEach(function (seat) { addSeatTarget(seat, bySeat[seat]); });
    var clearing = using(selected).some(function (c) { return c.move.type === "clear"; });
    if (controls) {
      controls.hidden = false;
      controls.querySelector("[data-action=rotate]").hidden = !turnable;
      controls.querySelector("[data-action=pass]").hidden = !own.some(function (c) { return isPass(c.move); });
      var clearButton = controls.querySelector("[data-action=clear]");
      if (clearButton) { clearButton.hidden = !clearing; }
    }
    var selfPlays = own.filter(function (c) { return isSelfPlay(c.move); });
    if (hint) {
      var where = placements.length ? (turnable ? "hint_place_or_turn" : "hint_place")
        : Object.keys(bySeat).length ? "hint_player"
        : own.some(function (c) { return isCellTarget(c.move); }) ? "hint_cell"
        : null;
      var why = chosenCard() ? chosenCard().getAttribute("data-why") : null;
      hint.textContent = selfPlays.length ? say("hint_in_front")
        : where ? say(where)
        : why ? say("hint_discard_why", { why: why }) : say("hint_discard");
    }
    // A card with nothing but a discard lights nothing up: its buttons are what comes next (on a phone, below).
    if (controls && !placements.length && !own.some(function (c) { return c.move.type === "play"; })) {
      controls.scrollIntoView({ block: "nearest" });
    }
    // Once the buttons and the hint have their final size: the lit players and cells come into view.
    reveal(Array.prototype.slice.call(document.querySelectorAll(".seat.target")));
    zoom.follow();
    if (selfPlays.length) { offer(selfPlays); }
  }

  // Saboteur 2: tick cards in the hand, for a pass of several cards or for two discards that remove a card.
  function startTicking(kind) {
    mode = kind;
    ticked = [selected];
    clearTargets();
    hideConfirm();
    if (controls) { controls.hidden = true; }
    showTicks();
  }

  function tick(id) {
    var at = ticked.indexOf(id);
    var most = mode === "clear" ? 2 : maxPass();
    if (at >= 0) { ticked.splice(at, 1); } else if (ticked.length < most) { ticked.push(id); }
    clearTargets();
    hideConfirm();
    showTicks();
  }

  function maxPass() {
    return choices.reduce(function (most, c) { return isPass(c.move) ? Math.max(most, c.move.cards.length) : most; }, 0);
  }

  function showTicks() {
    handCards.forEach(function (card) {
      var on = ticked.indexOf(Number(card.getAttribute("data-card"))) >= 0;
      card.classList.toggle("ticked", on);
      card.classList.remove("selected");
      faceOf(card).setAttribute("aria-pressed", on ? "true" : "false");
    });
    var cards = ticked.slice().sort(function (a, b) { return a - b; });
    if (mode === "pass") {
      if (hint) { hint.textContent = counted("hint_pass_cards", maxPass()); }
      offer(choices.filter(function (c) { return isPass(c.move) && sameCards(c.move.cards, cards); }), say("confirm_pass"));
      return;
    }
    var clears = choices.filter(function (c) { return c.move.type === "clear" && sameCards(c.move.cards, cards); });
    if (hint) {
      hint.textContent = cards.length < 2 ? say("hint_second_card") : say("hint_remove");
    }
    var byCard = {};
    clears.forEach(function (c) { (byCard[c.move.remove] = byCard[c.move.remove] || []).push(c); });
    Object.keys(byCard).forEach(function (id) { addFrontTarget(id, byCard[id]); });
    var lit = document.querySelector(".seat.you .front-card.target");
    if (lit) { lit.scrollIntoView({ block: "center", behavior: "smooth" }); }  // on a phone it lies further down
  }

  // A card lying in front of you, lit up as the one that two discards remove.
  function addFrontTarget(cardId, options) {
    var own = document.querySelector('.seat.you [data-front-card="' + cardId + '"]');
    if (!own) { return; }
    own.setAttribute("aria-label", options[0].label);
    lightUp(own, function () {
      own.classList.add("chosen");
      offer(options);
    });
  }

  // Make an element of the page a lit target: tapped, or Enter/Space, runs `handler` (clearTargets undoes it).
  function lightUp(element, handler) {
    element.classList.add("target");
    element.setAttribute("role", "button");
    element.setAttribute("tabindex", "0");
    element._pbemHandler = handler;
    element._pbemKeys = function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); handler(); }
    };
    element.addEventListener("click", element._pbemHandler);
    element.addEventListener("keydown", element._pbemKeys);
  }

  // After a round: the players a Theft may rob light up; "let it go" stays a button of its own.
  function lightSteals(steals) {
    var bySeat = {};
    steals.filter(function (c) { return c.move.target !== null; }).forEach(function (c) {
      (bySeat[c.move.target] = bySeat[c.move.target] || []).push(c);
    });
    Object.keys(bySeat).forEach(function (seat) { addSeatTarget(seat, bySeat[seat]); });
    reveal(Array.prototype.slice.call(document.querySelectorAll(".seat.target")));
  }

  function clearTargets() {
    if (targetsLayer) { while (targetsLayer.firstChild) { targetsLayer.removeChild(targetsLayer.firstChild); } }
    var lit = seats.concat(Array.prototype.slice.call(document.querySelectorAll("[data-front-card]")));
    lit.forEach(function (seat) {
      seat.classList.remove("target", "chosen");
      seat.removeAttribute("role");
      seat.removeAttribute("tabindex");
      if (seat._pbemHandler) { seat.removeEventListener("click", seat._pbemHandler); seat.removeEventListener("keydown", seat._pbemKeys); }
      seat._pbemHandler = null;
    });
  }

  function cellBox(x, y) {
    var minX = Number(board.getAttribute("data-min-x"));
    var maxY = Number(board.getAttribute("data-max-y"));
    var w = Number(board.getAttribute("data-cell-w"));
    var h = Number(board.getAttribute("data-cell-h"));
    var margin = Number(board.getAttribute("data-margin"));
    return { left: margin + (x - minX) * w, top: margin + (maxY - y) * h, width: w, height: h };
  }

  function addCellTarget(x, y, options) {
    if (!targetsLayer) { return; }
    var box = cellBox(x, y);
    var rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("class", "target");
    rect.setAttribute("x", box.left + 2);
    rect.setAttribute("y", box.top + 2);
    rect.setAttribute("width", box.width - 4);
    rect.setAttribute("height", box.height - 4);
    rect.setAttribute("rx", 6);
    rect.setAttribute("tabindex", "0");
    rect.setAttribute("role", "button");
    rect.setAttribute("aria-label", options[0].label);
    rect.setAttribute("data-x", x);
    rect.setAttribute("data-y", y);
    onActivate(rect, function () {
      Array.prototype.forEach.call(targetsLayer.querySelectorAll(".target"), function (t) { t.classList.remove("chosen"); });
      rect.classList.add("chosen");
      preview(options[0].move, box);
      offer(options);
    });
    targetsLayer.appendChild(rect);
  }

  function addSeatTarget(seatIndex, options) {
    var seat = document.querySelector('.seat[data-seat="' + seatIndex + '"]');
    if (!seat) { return; }
    lightUp(seat, function (event) {
      if (event && event.target && event.target.closest && event.target.closest(".front-card.target")) { return; }
      seats.forEach(function (s) { s.classList.remove("chosen"); });
      seat.classList.add("chosen");
      offer(options);
    });
  }

  // Lay the chosen path card on the board, as it would lie, before the player confirms.
  function preview(move, box) {
    if (!isPlacement(move)) { return; }
    var card = document.querySelector('.hand-card[data-card="' + move.card + '"] svg .art');
    if (!card) { return; }
    var ghost = document.createElementNS(SVG, "g");
    ghost.setAttribute("class", "ghost");
    var turn = move.rotated ? " rotate(180 " + box.width / 2 + " " + box.height / 2 + ")" : "";
    ghost.setAttribute("transform", "translate(" + box.left + " " + box.top + ")" + turn);
    ghost.appendChild(card.cloneNode(true));
    targetsLayer.insertBefore(ghost, targetsLayer.firstChild);
  }

  // The confirm step: one button per possible move (a double repair on one player offers two).
  function offer(options, verb) {
    if (!options.length) { return; }
    confirmText.textContent = options.length === 1 ? say("confirm_move", { move: options[0].label }) : say("confirm_which");
    while (confirmActions.firstChild) { confirmActions.removeChild(confirmActions.firstChild); }
    options.forEach(function (choice) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.textContent = options.length === 1 ? (verb || say(choice.move.type === "steal" ? "confirm_steal" : "confirm_play")) : choice.label;
      button.addEventListener("click", function () { submit(choice); });
      confirmActions.appendChild(button);
    });
    confirmBar.hidden = false;
    confirmActions.firstChild.focus({ preventScroll: true });
    confirmBar.scrollIntoView({ block: "nearest" });
  }

  function hideConfirm() {
    confirmBar.hidden = true;
    Array.prototype.forEach.call(document.querySelectorAll(".ghost"), function (g) { g.parentNode.removeChild(g); });
  }

  function submit(choice) {
    Array.prototype.forEach.call(confirmActions.querySelectorAll("button"), function (b) { b.disabled = true; });
    addHidden("move", choice.value);
    addHidden("confirmed", "yes");
    form.submit();
  }

  function addHidden(name, value) {
    var input = form.querySelector('input[type=hidden][name="' + name + '"]');
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }
})();
