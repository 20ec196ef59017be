/*
 * The replay, paged without reloading: buttons, the slider and the arrow keys (plain JavaScript, no framework,
 * no inline code).
 *
 * Without this file every button is a link to its step and the slider is a form, so the replay still works.
 * On the server's page each step is fetched as the page the link names and its #replay part is swapped in.
 * In the offline file (one HTML file saved at the end of a game) every step is already inside the file:
 * #replay-data holds the distinct pieces of HTML and each step as the list of its pieces.
 */
(function () {
  "use strict";

  var root = document.getElementById("replay");
  if (!root) { return; }
  var packed = document.getElementById("replay-data");
  var data = packed ? JSON.parse(packed.textContent) : null;
  var latest = 0;

  function offlineStep(step) {
    var pieces = data.steps[step];
    if (!pieces) { return null; }
    return pieces.map(function (index) { return data.pieces[index]; }).join("");
  }

  function stepAddress(step) {
    var address = new URL(window.location.href);
    address.searchParams.set("step", String(step));
    address.hash = "";
    return address;
  }

  function fetchStep(step) {
    return fetch(stepAddress(step), { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("step " + response.status); }
        return response.text();
      })
      .then(function (text) {
        var page = new DOMParser().parseFromString(text, "text/html");
        var part = page.getElementById("replay");
        return part ? part.innerHTML : null;
      });
  }

  function show(step, nav) {
    var ticket = ++latest;
    var next = data ? Promise.resolve(offlineStep(step)) : fetchStep(step);
    next.then(function (html) {
      if (html === null || ticket !== latest) { return; }
      root.innerHTML = html;
      if (data) {
        window.history.replaceState(null, "", "#step-" + step);
      } else {
        window.history.replaceState(null, "", stepAddress(step).toString());
      }
      var again = nav ? root.querySelector('[data-nav="' + nav + '"]') : null;
      if (again && typeof again.focus === "function") { again.focus(); }
    }).catch(function () {
      // The server is out of reach: let the browser open the step as an ordinary page.
      if (!data) { window.location.assign(stepAddress(step).toString()); }
    });
  }

  function slider() { return root.querySelector("#replay-step"); }

  function go(nav) {
    var link = root.querySelector('a[data-nav="' + nav + '"]');
    if (link) { show(Number(link.getAttribute("data-step")), nav); }
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-step]") : null;
    if (!link || !root.contains(link)) { return; }
    event.preventDefault();
    show(Number(link.getAttribute("data-step")), link.getAttribute("data-nav"));
  });

  root.addEventListener("submit", function (event) {
    if (!event.target.classList.contains("replay-slider")) { return; }
    event.preventDefault();
    var range = slider();
    if (range) { show(Number(range.value), "range"); }
  });

  root.addEventListener("input", function (event) {
    if (event.target.id !== "replay-step") { return; }
    var out = root.querySelector("#replay-step-out");
    if (out) { out.textContent = event.target.value; }
  });

  root.addEventListener("change", function (event) {
    if (event.target.id === "replay-step") { show(Number(event.target.value), "range"); }
  });

  var KEYS = { ArrowRight: "next", ArrowLeft: "back", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var nav = KEYS[event.key];
    if (!nav || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (event.target && event.target.isContentEditable)) {
      return;
    }
    event.preventDefault();
    go(nav);
  });

  if (data) {
    var asked = /^#step-(\d+)$/.exec(window.location.hash);
    if (asked) { show(Number(asked[1]), null); }
  }
})();
