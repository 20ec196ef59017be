// The host's pages: show the part of the new-game form that fits how players join, offer the browser's time zone,
// bring the first mistake into view, and copy an invite link. Everything works without it too.
(function () {
  "use strict";
  var form = document.getElementById("new-game-form");
  if (form) {
    var zone = document.getElementById("host_timezone");
    try {
      if (zone && (!zone.value || zone.value === "UTC")) { zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; }
    } catch (e) { /* an old browser: UTC */ }
    var show = function () {
      var chosen = form.querySelector('input[name="join"]:checked');
      var mode = chosen ? chosen.value : "list";
      document.querySelectorAll("[data-join]").forEach(function (part) {
        part.hidden = part.getAttribute("data-join") !== mode;
      });
    };
    form.querySelectorAll('input[name="join"]').forEach(function (radio) { radio.addEventListener("change", show); });
    show();
    var first = form.querySelector("[aria-invalid=true]");
    if (first) { first.scrollIntoView({block: "center"}); first.focus({preventScroll: true}); }
  }
  var joinZone = document.getElementById("timezone");
  if (joinZone && joinZone.getAttribute("data-offer") === "browser") {
    try {
      var here = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (here && joinZone.querySelector('option[value="' + here + '"]')) { joinZone.value = here; }
    } catch (e) { /* keep UTC */ }
  }
  var copy = document.getElementById("copy-link");
  if (copy && navigator.clipboard) {
    // Its words come from the page, in the reader's language: the button's own, and data-copied once it worked.
    var label = copy.textContent;
    var copied = copy.getAttribute("data-copied") || "Copied";
    copy.hidden = false;
    copy.addEventListener("click", function () {
      var link = document.getElementById("invite-link");
      navigator.clipboard.writeText(link.value).then(function () {
        copy.textContent = copied;
        setTimeout(function () { copy.textContent = label; }, 2500);
      });
    });
  }
  var firstError = document.querySelector(".join-form [aria-invalid=true]");
  if (firstError) { firstError.focus(); }
})();
