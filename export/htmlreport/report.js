/* androprof's report: sortable tables and the flame graph. No network, no libraries. */
(function () {
  "use strict";

  /* Tables: a click on a heading sorts by its column; numbers biggest first, text A to Z,
     a second click reverses. Unknown numbers stay last either way. */
  function sortTable(table, col) {
    var heads = table.tHead.rows[0].cells;
    var th = heads[col];
    var numeric = th.getAttribute("data-type") === "num";
    var was = th.getAttribute("aria-sort");
    var dir = was ? (was === "ascending" ? -1 : 1) : (numeric ? -1 : 1);
    for (var i = 0; i < heads.length; i++) heads[i].removeAttribute("aria-sort");
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (r, at) {
      var cell = r.cells[col];
      var k = null;
      if (cell) {
        if (numeric) {
          var s = cell.getAttribute("data-sort");
          k = s === null || s === "" ? null : parseFloat(s);
        } else {
          k = cell.textContent;
        }
      }
      return { row: r, key: k, at: at };
    });
    keyed.sort(function (a, b) {
      if (a.key === null || b.key === null) {
        if (a.key === b.key) return a.at - b.at;
        return a.key === null ? 1 : -1;
      }
      var c = numeric ? a.key - b.key : a.key.localeCompare(b.key);
      return c !== 0 ? dir * c : a.at - b.at;
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k.row); });
    body.appendChild(frag);
  }

  function sortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, col) {
      th.addEventListener("click", function () { sortTable(table, col); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortTable(table, col); }
      });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);

  /* Numbers as the page writes them: digits in threes, separated by spaces. */
  function grouped(v) {
    var s = Math.round(v).toString();
    var neg = s.charAt(0) === "-";
    if (neg) s = s.slice(1);
    var out = "";
    while (s.length > 3) { out = " " + s.slice(-3) + out; s = s.slice(0, -3); }
    return (neg ? "-" : "") + s + out;
  }
  /* literal is q as a regular expression that matches q itself. */
  function literal(q) { return q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(2) + "%" : "unknown"; }

  /* The flame graph: frames from the page's JSON, drawn as an icicle of positioned boxes. */
  var ROW = 18;
  /* The layers' colours of the window's charts (chart/draw.go's palette, application first),
     lightened as its flame graph lightens them so dark text stays readable. */
  var LAYER_COLOURS = ["", "#6da7ce", "#ffac62", "#76c176", "#e47373", "#b99cd4", "#b4918a"];

  function Flame(data, el, tip, search, matchOut) {
    var f = data.nodes, n = f.length / 6;
    this.n = n; this.data = data; this.el = el; this.tip = tip; this.matchOut = matchOut;
    this.parent = new Int32Array(n); this.name = new Int32Array(n); this.origin = new Int32Array(n);
    this.layer = new Int32Array(n); this.self = new Float64Array(n); this.total = new Float64Array(n);
    this.depth = new Int32Array(n); this.start = new Float64Array(n); this.end = new Int32Array(n);
    var next = new Float64Array(n); /* where a frame's next callee starts */
    for (var i = 0; i < n; i++) {
      var p = f[6 * i];
      this.parent[i] = p; this.name[i] = f[6 * i + 1]; this.origin[i] = f[6 * i + 2];
      this.layer[i] = f[6 * i + 3]; this.self[i] = f[6 * i + 4]; this.total[i] = f[6 * i + 5];
      if (p >= 0) {
        this.depth[i] = this.depth[p] + 1;
        this.start[i] = next[p];
        next[p] += this.total[i];
      }
      next[i] = this.start[i];
      this.end[i] = i + 1;
    }
    for (var j = n - 1; j > 0; j--) { /* preorder: a subtree is [i, end[i]) */
      var q = this.parent[j];
      if (this.end[j] > this.end[q]) this.end[q] = this.end[j];
    }
    this.focus = 0;
    this.matched = null;
    var self = this;
    el.addEventListener("click", function (e) {
      var box = e.target.closest ? e.target.closest(".fr") : null;
      if (box) self.zoom(+box.getAttribute("data-i"));
    });
    el.addEventListener("mousemove", function (e) {
      var box = e.target.closest ? e.target.closest(".fr") : null;
      if (!box) { tip.hidden = true; return; }
      tip.textContent = self.describe(+box.getAttribute("data-i"));
      tip.hidden = false;
      var x = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
      tip.style.left = Math.max(0, x) + "px";
      tip.style.top = (e.clientY + 16) + "px";
    });
    el.addEventListener("mouseleave", function () { tip.hidden = true; });
    if (search) search.addEventListener("input", function () { self.search(search.value); });
  }

  /* legend names the layers' colours, when the frames have layers (sampled runs). */
  Flame.prototype.legend = function (el) {
    var seen = {};
    for (var i = 0; i < this.n; i++) seen[this.layer[i]] = true;
    for (var l = 1; l < LAYER_COLOURS.length; l++) {
      if (!seen[l] || !this.data.layers[l]) continue;
      var s = document.createElement("span");
      s.style.setProperty("--swatch", LAYER_COLOURS[l]);
      s.textContent = this.data.layers[l];
      el.appendChild(s);
    }
  };

  Flame.prototype.str = function (i) { return this.data.strs[i] || ""; };

  Flame.prototype.describe = function (i) {
    var unit = this.data.unit, all = this.total[0], zoomed = this.total[this.focus];
    var lines = [this.str(this.name[i])];
    var where = this.str(this.origin[i]);
    var layer = this.data.layers[this.layer[i]];
    if (where || layer) lines.push([layer, where].filter(Boolean).join(" · "));
    lines.push("total " + grouped(this.total[i]) + " " + unit + " (" + pct(this.total[i], all) + " of all" +
      (this.focus !== 0 ? ", " + pct(this.total[i], zoomed) + " of the zoomed frame" : "") + ")");
    lines.push("self " + grouped(this.self[i]) + " " + unit + " (" + pct(this.self[i], all) + ")");
    return lines.join("\n");
  };

  Flame.prototype.zoom = function (i) {
    if (i >= 0 && i < this.n) this.focus = i;
    this.draw();
  };

  Flame.prototype.colour = function (i) {
    var l = this.layer[i];
    if (l > 0 && l < LAYER_COLOURS.length) return LAYER_COLOURS[l];
    var s = this.str(this.origin[i]) || this.str(this.name[i]), h = 0;
    for (var k = 0; k < s.length; k++) h = (h * 31 + s.charCodeAt(k)) | 0;
    h = Math.abs(h);
    return "hsl(" + (10 + h % 45) + "," + (70 + h % 20) + "%," + (58 + (h >> 8) % 14) + "%)";
  };

  Flame.prototype.box = function (i, left, width, depth, cls) {
    var d = document.createElement("div");
    d.className = cls;
    d.setAttribute("data-i", i);
    d.style.left = left + "%";
    d.style.width = width + "%";
    d.style.top = depth * ROW + "px";
    d.style.background = this.colour(i);
    d.textContent = this.str(this.name[i]);
    return d;
  };

  /* draw shows the focused frame full width, its callers above it greyed, and every callee at
     least half a pixel wide. */
  Flame.prototype.draw = function () {
    var el = this.el, f = this.focus;
    var px = Math.max(el.clientWidth, 1);
    var frag = document.createDocumentFragment();
    var chain = [];
    for (var a = this.parent[f]; a >= 0; a = this.parent[a]) chain.unshift(a);
    chain.forEach(function (a, row) { frag.appendChild(this.box(a, 0, 100, row, "fr anc")); }, this);
    var base = chain.length, x0 = this.start[f], w = this.total[f] || 1, deepest = base;
    for (var i = f; i < this.end[f];) {
      var width = this.total[i] / w;
      if (width * px < 0.5) { i = this.end[i]; continue; }
      var row = base + this.depth[i] - this.depth[f];
      var cls = "fr" + (this.matched && this.matched[i] ? " match" : "");
      frag.appendChild(this.box(i, 100 * (this.start[i] - x0) / w, 100 * width, row, cls));
      if (row > deepest) deepest = row;
      i++;
    }
    el.textContent = "";
    el.appendChild(frag);
    el.style.height = (deepest + 1) * ROW + 2 + "px";
    el.classList.toggle("searching", this.matched !== null);
  };

  /* search marks the frames whose name or origin matches q (a regular expression, else plain
     text) and says their share: each matching frame counted once with its callees, not again
     for a matching callee. */
  Flame.prototype.search = function (q) {
    if (!q) { this.matched = null; this.matchOut.textContent = ""; this.draw(); return null; }
    var re;
    try { re = new RegExp(q, "i"); } catch (e) { re = new RegExp(literal(q), "i"); }
    var matched = new Uint8Array(this.n), count = 0, sum = 0, coveredTo = 0;
    for (var i = 0; i < this.n; i++) {
      if (!re.test(this.str(this.name[i])) && !re.test(this.str(this.origin[i]))) continue;
      matched[i] = 1; count++;
      if (i >= coveredTo) { sum += this.total[i]; coveredTo = this.end[i]; }
    }
    this.matched = matched;
    var share = this.total[0] > 0 ? sum / this.total[0] : 0;
    this.matchOut.textContent = count + (count === 1 ? " frame matches: " : " frames match: ") +
      grouped(sum) + " " + this.data.unit + ", " + pct(sum, this.total[0]) + " of all";
    this.draw();
    return { frames: count, total: sum, share: share };
  };

  var flame = null;
  var dataEl = document.getElementById("androprof-flame");
  if (dataEl) {
    var data = JSON.parse(dataEl.textContent);
    var graph = document.getElementById("flame-graph");
    if (data.nodes.length > 0) {
      flame = new Flame(data, graph, document.getElementById("flame-tip"),
        document.getElementById("flame-search"), document.getElementById("flame-match"));
      flame.legend(document.getElementById("flame-legend"));
      flame.draw();
      document.getElementById("flame-reset").addEventListener("click", function () { flame.zoom(0); });
      window.addEventListener("resize", function () { flame.draw(); });
      /* report.html?search=REGEX opens with that search: a link that shows a colleague a method. */
      var asked = new URLSearchParams(location.search).get("search");
      if (asked) {
        document.getElementById("flame-search").value = asked;
        flame.search(asked);
      }
    } else {
      graph.textContent = "No stacks to draw.";
    }
  }

  /* ?selftest: the page exercises itself (sorts each table, hovers, zooms and searches the flame
     graph, which it leaves so) and writes what it saw into #selftest, for a headless browser's
     test (chromium --dump-dom). */
  if (location.search.indexOf("selftest") < 0) return;
  var report = { tables: [], flame: null };
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (t) {
    var heads = t.tHead.rows[0].cells, col = -1;
    for (var i = 0; i < heads.length; i++) if (heads[i].getAttribute("data-type") === "num") { col = i; break; }
    if (col < 0) { report.tables.push({ rows: t.tBodies[0].rows.length, sorted: null }); return; }
    heads[col].click(); heads[col].click(); /* descending, then ascending */
    var prev = -Infinity, ok = true, unknownSeen = false;
    Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
      var s = r.cells[col].getAttribute("data-sort");
      if (s === null || s === "") { unknownSeen = true; return; }
      if (unknownSeen || parseFloat(s) < prev) ok = false;
      prev = parseFloat(s);
    });
    report.tables.push({ rows: t.tBodies[0].rows.length, sorted: ok, order: heads[col].getAttribute("aria-sort") });
  });
  if (flame) {
    var g = document.getElementById("flame-graph");
    var r = { frames: g.querySelectorAll(".fr").length, root: flame.str(flame.name[0]) };
    var widest = -1;
    for (var k = 1; k < flame.n; k++) {
      if (flame.parent[k] === 0 && (widest < 0 || flame.total[k] > flame.total[widest])) widest = k;
    }
    var first = widest > 0 ? g.querySelector('.fr[data-i="' + widest + '"]') : null;
    if (first) {
      first.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, clientX: 20, clientY: 20 }));
      var tip = document.getElementById("flame-tip");
      r.tip = tip.hidden ? "" : tip.textContent;
      first.click();
      r.zoomed = flame.str(flame.name[flame.focus]);
      r.zoomedFrames = g.querySelectorAll(".fr").length;
      r.callersShown = g.querySelectorAll(".fr.anc").length;
      var s = flame.search(literal(r.zoomed));
      r.search = s;
      r.matchText = document.getElementById("flame-match").textContent;
      r.matchedShown = g.querySelectorAll(".fr.match").length;
      document.getElementById("flame-search").value = r.zoomed; /* left zoomed and searched, for a screenshot */
    }
    report.flame = r;
  }
  var out = document.createElement("pre");
  out.id = "selftest";
  out.textContent = JSON.stringify(report);
  document.body.appendChild(out);
})();
