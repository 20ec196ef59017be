/*
 * Table talk without reloading the page (templates/play/_chat.html works without this file too):
 * send with the same form through fetch, fetch new messages every 15 seconds while the page is visible
 * and whenever it comes back into view, keep an unsent draft across the turn page's own reloads, and tell
 * the server which messages this page has shown (so emails do not repeat them). Messages are inserted as
 * text (textContent), never as markup.
 */
(function () {
  "use strict";

  var panel = document.getElementById("chat");
  if (!panel || !window.fetch || !window.URLSearchParams) { return; }
  var list = document.getElementById("chat-messages");
  var form = document.getElementById("chat-form");
  var text = document.getElementById("chat-text");
  var send = form.querySelector("button[type=submit]");
  var problem = document.getElementById("chat-problem");
  var empty = panel.querySelector(".chat-empty");
  var chatUrl = panel.getAttribute("data-chat-url");
  var readUrl = panel.getAttribute("data-read-url");
  var csrf = form.querySelector("input[name=csrf_token]").value;
  var lastId = Number(panel.getAttribute("data-last-id")) || 0;
  var reportedId = 0;
  var fetching = false;
  var draftKey = "pbem-chat-draft:" + chatUrl;
  var POLL_MS = 15000;

  // Every word this script shows comes from the page, in the reader's language (words.js).
  var say = window.PbemWords.say;

  function visible() { return document.visibilityState === "visible"; }

  function scrollToEnd() { list.scrollTop = list.scrollHeight; }

  function span(className, content) {
    var element = document.createElement("span");
    element.className = className;
    element.textContent = content;
    return element;
  }

  function show(message) {
    if (message.id <= lastId) { return; }
    var item = document.createElement("li");
    item.className = "chat-line chat-" + message.kind + (message.is_you ? " chat-you" : "");
    item.setAttribute("data-id", String(message.id));
    if (message.kind !== "system") {
      item.appendChild(span("chat-name", message.name + (message.is_you ? " " + say("chat_you") : "")));
      item.appendChild(document.createTextNode(" "));
    }
    var when = document.createElement("time");
    when.className = "chat-when";
    when.setAttribute("datetime", message.at);
    when.textContent = message.when + (message.by_email ? " · " + say("chat_by_email") : "");
    item.appendChild(when);
    item.appendChild(span("chat-text", message.text));
    list.appendChild(item);
    lastId = message.id;
    empty.hidden = true;
  }

  // What this page has shown, reported only while someone can see it.
  function reportRead() {
    if (!visible() || lastId <= reportedId) { return; }
    reportedId = lastId;
    fetch(readUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf, "Accept": "application/json" },
      body: new URLSearchParams({ upto: String(lastId) })
    }).catch(function () { reportedId = 0; });
  }

  function fetchNew() {
    if (fetching) { return Promise.resolve(); }
    fetching = true;
    return fetch(chatUrl + "?after=" + lastId, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("chat " + response.status); }
        return response.json();
      })
      .then(function (data) {
        var atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
        data.messages.forEach(show);
        if (data.messages.length && atEnd) { scrollToEnd(); }
        reportRead();
      })
      .catch(function () { /* the next poll tries again */ })
      .then(function () { fetching = false; });
  }

  function tell(message) {
    problem.textContent = message;
    problem.hidden = !message;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!text.value.trim()) { tell(say("chat_empty")); return; }
    send.disabled = true;
    fetch(form.action, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf, "Accept": "application/json" },
      body: new URLSearchParams(new FormData(form))
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (result) {
      if (!result.ok) { tell(result.data.message || say("chat_refused")); return; }
      tell("");
      text.value = "";
      forgetDraft();
      return fetchNew().then(scrollToEnd);
    }).catch(function () {
      tell(say("chat_offline"));
    }).then(function () { send.disabled = false; });
  });

  // Ctrl+Enter (or Cmd+Enter) sends; Enter alone starts a new line, as on a phone.
  text.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit ? form.requestSubmit() : send.click();
    }
  });

  // The turn page reloads itself when the game moves on; an unsent message survives that.
  function forgetDraft() { try { window.sessionStorage.removeItem(draftKey); } catch (e) { /* private mode */ } }
  try {
    var draft = window.sessionStorage.getItem(draftKey);
    if (draft && !text.value) { text.value = draft; }
    text.addEventListener("input", function () { window.sessionStorage.setItem(draftKey, text.value); });
  } catch (e) { /* storage refused: drafts are simply not kept */ }

  window.setInterval(function () { if (visible()) { fetchNew(); } }, POLL_MS);
  document.addEventListener("visibilitychange", function () { if (visible()) { fetchNew(); } });
  window.addEventListener("focus", function () { fetchNew(); });
  scrollToEnd();
  reportRead();
})();
