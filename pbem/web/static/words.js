// The words the page's scripts show, in the reader's language: the page's #script-words block (templates/base.html,
// pbem/web/script_words.py), read once. `say` fills in a message's %(name)s; `counted` gives a message for a count.
window.PbemWords = (function () {
  "use strict";
  var words = {};
  function load() {
    var block = document.getElementById("script-words");
    try { words = block ? JSON.parse(block.textContent) : {}; } catch (e) { words = {}; }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", load); } else { load(); }
  return {
    say: function (key, values) {
      var text = typeof words[key] === "string" ? words[key] : "";
      return text.replace(/%(?:\((\w+)\)s|%)/g, function (whole, name) {
        if (!name) { return "%"; }
        return values && name in values ? String(values[name]) : whole;
      });
    },
    counted: function (key, count) {
      var forms = words[key] || {};
      return forms[String(count)] || forms[String(Object.keys(forms).length)] || "";
    }
  };
})();
