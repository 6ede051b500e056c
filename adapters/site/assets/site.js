// The index's filters: status, tag and text narrow the table in place.
// Without this script the page is the complete list, and the form stays
// hidden.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var table = document.getElementById("decisions");
  if (!form || !table) { return; }
  var text = document.getElementById("f-text");
  var status = document.getElementById("f-status");
  var tag = document.getElementById("f-tag");
  var count = document.getElementById("count");
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  form.hidden = false;

  function apply() {
    var words = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!status.value || row.getAttribute("data-status") === status.value) &&
        (!tag.value || row.getAttribute("data-tags").indexOf("|" + tag.value + "|") >= 0) &&
        words.every(function (w) { return row.getAttribute("data-text").indexOf(w) >= 0; });
      row.hidden = !ok;
      if (ok) { shown++; }
    });
    count.textContent = shown === rows.length ? rows.length + " decisions." : shown + " of " + rows.length + " decisions shown.";
    var q = new URLSearchParams();
    if (text.value) { q.set("q", text.value); }
    if (status.value) { q.set("status", status.value); }
    if (tag.value) { q.set("tag", tag.value); }
    var s = q.toString();
    if (window.history && window.history.replaceState && location.protocol !== "file:") {
      window.history.replaceState(null, "", s ? "?" + s : location.pathname);
    }
  }

  var params = new URLSearchParams(location.search);
  if (params.get("q")) { text.value = params.get("q"); }
  if (params.get("status")) { status.value = params.get("status"); }
  if (params.get("tag")) { tag.value = params.get("tag"); }
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  apply();
})();
