// "What governs this path?": explain's rules over the records' path
// matchers (assets/governs-data.js). Each matcher carries the JavaScript
// regular expression its glob translates to, so the pattern is matched
// here exactly as explain matches it:
//   - the path is normalised: backslashes become "/", one leading "./" goes;
//   - a path with a segment starting with "." (other than "." and "..")
//     matches only a pattern that spells such a segment itself;
//   - a path equal to the pattern matches; otherwise the regex decides;
//   - a negated matcher that matches takes the record out;
//   - accepted records govern, drafts and proposals are active proposals,
//     the rest is history; a corpus with an error finding shows none.
(function () {
  "use strict";
  var data = window.adrkitGoverns;
  var form = document.getElementById("governs");
  var input = document.getElementById("path");
  var answer = document.getElementById("answer");
  if (!data || !form) { return; }
  form.hidden = false;
  var compiled = {};
  function regex(src) {
    if (!(src in compiled)) {
      try { compiled[src] = new RegExp(src); } catch (e) { compiled[src] = null; }
    }
    return compiled[src];
  }
  function normalise(p) {
    p = p.split("\\").join("/");
    return p.indexOf("./") === 0 ? p.slice(2) : p;
  }
  function hasDotSegment(p) {
    return p.split("/").some(function (s) { return s.charAt(0) === "." && s !== "." && s !== ".."; });
  }
  function matches(m, cand, dot) {
    if (cand === "" || (dot && !m.allowsDot)) { return false; }
    if (cand === m.pattern) { return true; }
    var re = regex(m.source);
    return re !== null && re.test(cand);
  }
  // explain answers for one path: the buckets of matching records.
  function explain(path) {
    var out = { governing: [], activeProposals: [], history: [] };
    if (data.withheld) { return out; }
    var cand = normalise(path);
    var dot = hasDotSegment(cand);
    data.records.forEach(function (r) {
      var fired = [], suppressed = false;
      r.matchers.forEach(function (m) {
        if (!matches(m, cand, dot)) { return; }
        if (m.negate) { suppressed = true; } else if (fired.indexOf(m.pattern) < 0) { fired.push(m.pattern); }
      });
      if (fired.length > 0 && !suppressed) {
        out[data.buckets[r.status] || "history"].push({ record: r, fired: fired });
      }
    });
    return out;
  }
  window.adrkitExplain = explain;

  var titles = { governing: "Governing", activeProposals: "Active proposals", history: "History" };
  function show(path) {
    answer.textContent = "";
    if (path === "") { return; }
    var res = explain(path);
    var total = res.governing.length + res.activeProposals.length + res.history.length;
    var head = document.createElement("p");
    head.textContent = total === 0 ? "No decision covers " + path + "." :
      total + (total === 1 ? " decision covers " : " decisions cover ") + path + ".";
    answer.appendChild(head);
    ["governing", "activeProposals", "history"].forEach(function (bucket) {
      if (res[bucket].length === 0) { return; }
      var section = document.createElement("section");
      section.setAttribute("data-bucket", bucket);
      var h = document.createElement("h2");
      h.textContent = titles[bucket];
      section.appendChild(h);
      var ul = document.createElement("ul");
      res[bucket].forEach(function (e) {
        var li = document.createElement("li");
        li.setAttribute("data-id", e.record.id);
        var a = document.createElement("a");
        a.href = e.record.href;
        a.textContent = e.record.id + " " + e.record.title;
        li.appendChild(a);
        li.appendChild(document.createTextNode(" (" + e.record.status + "; matched by "));
        e.fired.forEach(function (p, i) {
          if (i > 0) { li.appendChild(document.createTextNode(", ")); }
          var c = document.createElement("code");
          c.textContent = p;
          li.appendChild(c);
        });
        li.appendChild(document.createTextNode(")"));
        ul.appendChild(li);
      });
      section.appendChild(ul);
      answer.appendChild(section);
    });
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    show(input.value);
    if (location.protocol !== "file:" && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", input.value ? "?path=" + encodeURIComponent(input.value) : location.pathname);
    }
  });
  var given = new URLSearchParams(location.search).get("path");
  if (given) { input.value = given; show(given); }
})();
