/* mechdiagram serve: reload this preview page when the server has built something new.  The server
   sends one "reload" event as soon as its build generation differs from the one this page was made
   from (data-generation on this script's element), so a build finished between the page load and
   this connection is not missed; a page made by an earlier server on this port (data-session) reloads
   at once.  Included in the preview server's own pages only, never in built
   output. */
(function () {
  "use strict";
  var script = document.currentScript;
  var since = script ? script.getAttribute("data-generation") : "0";
  var session = script ? script.getAttribute("data-session") : "";
  var source = new EventSource("/__mechdiagram/events?since=" + encodeURIComponent(since || "0") +
                               (session ? "&session=" + encodeURIComponent(session) : ""));
  source.addEventListener("reload", function () {
    source.close();
    window.location.reload();
  });
}());
