/// The replay page's style and script, inline (the page fetches nothing). The script reads the
/// contacts' paths from the page's JSON block and draws the contacts at the chosen moment; it
/// marks the body `data-ready` when done (with its own run time in `data-render-ms`) and
/// `data-error` if anything threw, so a headless browser can tell.
enum ReplayPageAssets {
    static let css = """
        body{font:14px system-ui,sans-serif;margin:16px;color:#222;background:#fff}
        h1{font-size:18px;margin:0 0 4px}.meta{color:#555;margin:4px 0}
        #surface{display:block;height:58vh;max-width:100%;background:#fafafa}
        #timeline{display:block;width:100%;height:auto;cursor:crosshair;user-select:none}
        .contact{fill:none;stroke-linejoin:round;stroke-linecap:round;opacity:.85}
        .ticks{fill:none;stroke-linecap:round}
        .edge-zone{fill:rgba(255,160,0,.18)}.thumb-zone{fill:rgba(0,120,255,.12)}.palm-zone{fill:rgba(200,0,120,.12)}
        #timeline text{font-size:11px;fill:#333}#timeline .tick{text-anchor:middle;fill:#666}
        .axis{stroke:#888;fill:none}.span{fill:#dde6f5;stroke:#7a93bf}
        .k-tap,.k-doubleTap{fill:#e3f3df;stroke:#6a9f5e}.k-longPress{fill:#f6ecd9;stroke:#b98a3c}
        .k-pinch,.k-rotate{fill:#f2e0f0;stroke:#a35c9b}.k-edgeSwipe{fill:#fde2d6;stroke:#c0603a}
        .began{fill:#2a7}.ended{stroke:#246;stroke-width:2}.cancelled{stroke:#c22;stroke-width:2;fill:none}
        .recognized{fill:#246}.changed{stroke:#555;stroke-width:.6;fill:none}
        #cursor{stroke:#d00;stroke-width:1.5}
        .touch{stroke:#000;stroke-width:.4;opacity:.8}#now text{fill:#000;paint-order:stroke;stroke:#fff;stroke-width:.6}
        """

    static let script = """
        "use strict";
        window.addEventListener("error", e => { document.body.dataset.error = String(e.message); });
        (() => {
          const started = performance.now();
          const D = JSON.parse(document.getElementById("data").textContent);
          const NS = "http://www.w3.org/2000/svg";
          const tl = document.getElementById("timeline"), now = document.getElementById("now");
          const cursor = document.getElementById("cursor"), readout = document.getElementById("readout");
          const x0 = +tl.dataset.x0, perMs = +tl.dataset.pxPerMs;
          const size = document.getElementById("surface").viewBox.baseVal;
          const r = Math.max(size.width, size.height) / 90;
          let current = 0;
          // The index of the last sample at or before t, or -1 when the contact is not down at t.
          function at(c, t) {
            let lo = 0, hi = c.t.length - 1;
            if (hi < 0 || t < c.t[0] || t > c.t[hi]) return -1;
            while (lo < hi) { const m = (lo + hi + 1) >> 1; if (c.t[m] <= t) lo = m; else hi = m - 1; }
            return lo;
          }
          function frameIndex(t) {
            let lo = 0, hi = D.frames.length - 1;
            while (lo < hi) { const m = (lo + hi + 1) >> 1; if (D.frames[m] <= t) lo = m; else hi = m - 1; }
            return lo;
          }
          function show(t) {
            if (D.frames.length) t = D.frames[frameIndex(t)];
            current = t;
            now.replaceChildren();
            let n = 0;
            for (const c of D.contacts) {
              const i = at(c, t);
              if (i < 0) continue;
              n++;
              const dot = document.createElementNS(NS, "circle");
              dot.setAttribute("class", "touch");
              dot.setAttribute("cx", c.x[i] / 10); dot.setAttribute("cy", c.y[i] / 10); dot.setAttribute("r", r);
              dot.style.fill = c.c;
              const label = document.createElementNS(NS, "text");
              label.setAttribute("x", c.x[i] / 10 + r * 1.2); label.setAttribute("y", c.y[i] / 10 - r * 1.2);
              label.textContent = String(c.id);
              now.append(dot, label);
            }
            const x = x0 + t * perMs;
            cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
            readout.textContent = "t = " + (t / 1000).toFixed(3) + " s: " + n + " contact" + (n === 1 ? "" : "s") + " down";
            readout.dataset.contacts = String(n);
          }
          function timeAt(e) {
            const box = tl.getBoundingClientRect(), vb = tl.viewBox.baseVal;
            const x = (e.clientX - box.left) * vb.width / box.width + vb.x;
            return Math.max(0, Math.min(D.end, (x - x0) / perMs));
          }
          tl.addEventListener("pointerdown", e => { tl.setPointerCapture(e.pointerId); show(timeAt(e)); });
          tl.addEventListener("pointermove", e => { if (e.buttons) show(timeAt(e)); });
          document.addEventListener("keydown", e => {
            if (!D.frames.length || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
            const i = frameIndex(current) + (e.key === "ArrowRight" ? 1 : -1);
            show(D.frames[Math.max(0, Math.min(D.frames.length - 1, i))]);
            e.preventDefault();
          });
          const m = /t=([0-9.]+)/.exec(location.hash);
          show(m ? Math.round(parseFloat(m[1]) * 1000) : 0);
          document.body.dataset.renderMs = String(Math.round(performance.now() - started));
          document.body.dataset.ready = "1";
        })();
        """
}
