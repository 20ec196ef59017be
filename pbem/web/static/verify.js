/*
 * The round page's check of a sealed deal: SHA-256 of the text in the box, computed by this browser (Web Crypto),
 * compared with the fingerprint published when the round was dealt. Plain JavaScript, no inline code.
 * Edit the box and check again to see a changed deal fail.
 */
(function () {
  "use strict";

  var form = document.getElementById("verify-form");
  if (!form) { return; }
  var button = document.getElementById("verify-button");
  var result = document.getElementById("verify-result");
  var bytes = document.getElementById("verify-bytes");
  var fingerprint = document.getElementById("verify-commitment");

  if (!(window.crypto && window.crypto.subtle && window.TextEncoder)) {
    result.textContent = "This browser cannot compute SHA-256 on this page (it needs a secure connection); " +
      "the command below does the same by hand.";
    return;
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (byte) {
      return ("0" + byte.toString(16)).slice(-2);
    }).join("");
  }

  function check() {
    var wanted = fingerprint.value.trim().toLowerCase();
    window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(bytes.value)).then(function (digest) {
      var got = hex(digest);
      if (got === wanted) {
        result.className = "verify-result match";
        result.textContent = "Match: these bytes give exactly the published fingerprint. " +
          "This is the deal that was sealed before the round began.";
      } else {
        result.className = "verify-result mismatch";
        result.textContent = "No match: these bytes give " + got + ", not the fingerprint above. " +
          "Either the text was changed, or this is not the deal that was sealed.";
      }
    });
  }

  button.hidden = false;
  button.addEventListener("click", check);
  form.addEventListener("submit", function (event) { event.preventDefault(); check(); });
  check();
})();
