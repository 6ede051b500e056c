// The index's filters (status, tag and text narrow the table in place)
// and the graph's (status and tag hide the other boxes, a button shows
// the picture at full size). Without this script the index is the
// complete list and the graph fits the window; the forms stay hidden.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);

  // Keeps the filters in the address of a served page, so that it can be
  // shared or reloaded.
  function remember(values) {
    var q = new URLSearchParams();
    Object.keys(values).forEach(function (k) { if (values[k]) { q.set(k, values[k]); } });
    var s = q.toString();
    if (window.history && window.history.replaceState && location.protocol !== "file:") {
      window.history.replaceState(null, "", s ? "?" + s : location.pathname);
    }
  }

  var form = document.getElementById("filters");
  var table = document.getElementById("decisions");
  if (form && table) {
    var text = document.getElementById("f-text");
    var status = document.getElementById("f-status");
    var tag = document.getElementById("f-tag");
    var count = document.getElementById("count");
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    // What adrkit search matches, normalised at build time, one entry per
    // row. The query is normalised the same way (trim, NFKC, lower case)
    // and must occur in one of the texts: search_decisions' rule.
    var index = window.adrkitSearch || [];
    form.hidden = false;

    var apply = function () {
      var needle = text.value.trim().normalize("NFKC").toLowerCase();
      var shown = 0;
      rows.forEach(function (row, i) {
        var ok = (!status.value || row.getAttribute("data-status") === status.value) &&
          (!tag.value || row.getAttribute("data-tags").indexOf("|" + tag.value + "|") >= 0) &&
          (!needle || (index[i] || []).some(function (t) { return t.indexOf(needle) >= 0; }));
        row.hidden = !ok;
        if (ok) { shown++; }
      });
      count.textContent = shown === rows.length ? rows.length + " decisions." : shown + " of " + rows.length + " decisions shown.";
      remember({q: text.value, status: status.value, tag: tag.value});
    };
    if (params.get("q")) { text.value = params.get("q"); }
    if (params.get("status")) { status.value = params.get("status"); }
    if (params.get("tag")) { tag.value = params.get("tag"); }
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
    apply();
  }

  var gform = document.getElementById("graph-filters");
  var graph = document.getElementById("graph");
  if (gform && graph) {
    var gstatus = document.getElementById("g-status");
    var gtag = document.getElementById("g-tag");
    var zoom = document.getElementById("g-zoom");
    var nodes = Array.prototype.slice.call(graph.querySelectorAll(".gnode"));
    var edges = Array.prototype.slice.call(graph.querySelectorAll("path.edge"));
    gform.hidden = false;

    var filter = function () {
      var off = {};
      nodes.forEach(function (n) {
        var hide = (gstatus.value && n.getAttribute("data-status") !== gstatus.value) ||
          (gtag.value && n.getAttribute("data-tags").indexOf("|" + gtag.value + "|") < 0);
        n.classList.toggle("off", !!hide);
        if (hide) { off[n.getAttribute("data-node")] = true; }
      });
      edges.forEach(function (e) {
        e.classList.toggle("off", !!(off[e.getAttribute("data-from")] || off[e.getAttribute("data-to")]));
      });
      remember({status: gstatus.value, tag: gtag.value});
    };
    if (params.get("status")) { gstatus.value = params.get("status"); }
    if (params.get("tag")) { gtag.value = params.get("tag"); }
    gform.addEventListener("change", filter);
    zoom.addEventListener("click", function () {
      var full = graph.classList.toggle("fit") === false;
      zoom.setAttribute("aria-pressed", full ? "true" : "false");
    });
    filter();
  }
})();
