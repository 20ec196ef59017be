/*
 * The round page's check of a sealed deal, computed by this browser (Web Crypto) and compared with the fingerprint
 * published when the round was dealt. Plain JavaScript, no inline code. Edit the box and check again to see a
 * changed deal fail.
 *
 * A deal sealed in parts (docs/fairness.md) is published one part per line: a shown part's line (without its
 * comma) is what its digest is the SHA-256 of; a withheld part's line gives its digest. The fingerprint is the
 * SHA-256 of the digests, each as 64 hex digits and a line break. A deal sealed whole (the first format) is one
 * line whose SHA-256 is the fingerprint.
 */
(function () {
  "use strict";

  var form = document.getElementById("verify-form");
  if (!form) { return; }
  var button = document.getElementById("verify-button");
  var result = document.getElementById("verify-result");
  var bytes = document.getElementById("verify-bytes");
  var fingerprint = document.getElementById("verify-commitment");

  // Every word this script shows comes from the page, in the reader's language (words.js).
  var say = window.PbemWords.say;

  if (!(window.crypto && window.crypto.subtle && window.TextEncoder)) {
    result.textContent = say("verify_unable");
    return;
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (byte) {
      return ("0" + byte.toString(16)).slice(-2);
    }).join("");
  }

  function sha256(text) {
    return window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(hex);
  }

  var PART = /^\{"(part|digest)"/;
  var WITHHELD = /^\{"digest":"([0-9a-f]{64})","part":"[^"]*"\}$/;

  function partDigest(line) {
    var withheld = WITHHELD.exec(line);
    return withheld ? Promise.resolve(withheld[1]) : sha256(line);
  }

  function fingerprintOf(text) {
    if (text.indexOf('{"format":"saboteur-deal-2"') !== 0) { return sha256(text); }
    var parts = text.split("\n").filter(function (line) { return PART.test(line); }).map(function (line) {
      return line.replace(/,$/, "");
    });
    return Promise.all(parts.map(partDigest)).then(function (digests) {
      return sha256(digests.map(function (digest) { return digest + "\n"; }).join(""));
    });
  }

  function check() {
    var wanted = fingerprint.value.trim().toLowerCase();
    fingerprintOf(bytes.value).then(function (got) {
      if (got === wanted) {
        result.className = "verify-result match";
        result.textContent = say("verify_match");
      } else {
        result.className = "verify-result mismatch";
        result.textContent = say("verify_mismatch", { digest: got });
      }
    });
  }

  button.hidden = false;
  button.addEventListener("click", check);
  form.addEventListener("submit", function (event) { event.preventDefault(); check(); });
  check();
})();
