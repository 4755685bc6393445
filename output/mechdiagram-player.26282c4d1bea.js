/* mechdiagram step player (WAI-ARIA Authoring Practices tabbed carousel: a rotation control, previous and
   next buttons, and a tablist of steps whose arrow keys follow the figure's direction, Home and End).
   An ES module that defines the <mech-diagram> custom element: each figure is set up when it is connected to
   the page, whether the page was parsed with it, a script put it there (innerHTML, a framework's render) or
   a site swapped it in without reloading, and one copy of the module serves every figure of the page (a
   module runs once per URL; defining the element twice is avoided, for a page that loads two copies).  The
   step windows come from the JSON the build wrote (the data-mech-player attribute) from the same timeline as
   the SVG keyframes, and every word it shows comes from the page (the build's message catalogue): this
   script holds none.  It never re-creates a control: it only changes text and attributes. */
var HOVER_REST_MS = 300;  /* how long the mouse rests on the figure before the animation stops */
var REVEAL_MARGIN_PX = 8;  /* room auto-scroll leaves beside the active boxes it brings into view */
var HOLD_MARGIN = 12;  /* user units between a held state panel and its frame's edge */
var REFERENCE_ATTRIBUTES = ["aria-labelledby", "aria-describedby", "aria-controls", "for"];

/* Give the ids inside root a suffix when the same figure is inlined more than once on a page. */
function uniquifyIds(root) {
  var counts = {};  /* every id on the page, counted once: linear however many figures there are */
  Array.prototype.forEach.call(document.querySelectorAll("[id]"), function (element) {
    counts[element.id] = (counts[element.id] || 0) + 1;
  });
  var renamed = {};
  var elements = [root].concat(Array.prototype.slice.call(root.querySelectorAll("[id]")));
  elements.forEach(function (element) {
    var id = element.id;
    if (!id || counts[id] < 2 || document.getElementById(id) === element) { return; }
    var n = 2;
    while (counts[id + "-" + n]) { n += 1; }
    renamed[id] = id + "-" + n;
    counts[id] -= 1;
    counts[renamed[id]] = 1;
    element.id = renamed[id];
  });
  if (!Object.keys(renamed).length) { return; }
  REFERENCE_ATTRIBUTES.forEach(function (name) {
    elements.concat(Array.prototype.slice.call(root.querySelectorAll("[" + name + "]"))).forEach(function (element) {
      var value = element.getAttribute(name);
      if (!value) { return; }
      var fixed = value.split(/\s+/).map(function (token) { return renamed[token] || token; }).join(" ");
      if (fixed !== value) { element.setAttribute(name, fixed); }
    });
  });
}

/* True when focus came from the keyboard (or the browser cannot tell: then behave as for the keyboard). */
function focusVisible(element) {
  try { return element.matches(":focus-visible"); } catch (error) { return true; }
}

function Player(root) {
  this.root = root;
  this.data = JSON.parse(root.getAttribute("data-mech-player"));
  this.stage = root.querySelector(".mech-stage");
  this.scenes = Array.prototype.slice.call(root.querySelectorAll("[data-mech-scene]"));
  this.words = this.data.words;
  /* The button holds both words in one place and shows one (player.css): its width never changes. */
  this.playButton = root.querySelector(".mech-play");
  this.canvases = Array.prototype.slice.call(root.querySelectorAll("[data-mech-canvas]"));
  this.tablists = Array.prototype.slice.call(root.querySelectorAll("[data-mech-tabs]"));
  this.status = root.querySelector(".mech-status");
  this.select = root.querySelector(".mech-scenario");
  this.scenario = 0;
  this.step = 0;
  this.elapsed = 0;      /* ms already shown of the current step */
  this.startedAt = null; /* clock reading when the current run of the step began */
  this.timer = null;
  this.early = null;     /* the timer that moves the picture to the next step half an ease before the text */
  this.picture = null;   /* the step the picture shows (data-mech-shown): the text's, or the next one's */
  this.playing = false;
  this.hoverPaused = false;  /* paused by a mouse resting on the figure: playing again when it leaves */
  this.reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

Player.prototype.steps = function () { return this.data.scenarios[this.scenario].steps; };

/* How long a highlight eases between two steps, in ms (the style sheet's transition, from the same timeline). */
Player.prototype.ease = function () { return this.reducedMotion ? 0 : (this.data.scenarios[this.scenario].ease || 0); };

/* The current scene's drawings, one per layout (wide and narrow), of which the style sheet shows one by the
   figure's width, and a sequence's heads strips, which show the step's highlights and marks over the drawing's
   heads (not a lane grid's copy of its names, which has no steps).  The player keeps every one at the same step
   and play state, so that a change of width (a turned phone, a resized window) shows the same moment. */
Player.prototype.svgs = function () {
  var drawings = this.scenes[this.scenario].querySelectorAll("svg[role=img], [data-mech-heads] svg");
  return Array.prototype.slice.call(drawings);
};

Player.prototype.tabs = function () {
  return Array.prototype.slice.call(this.tablists[this.scenario].querySelectorAll(".mech-tab"));
};

/* Arrow keys move between steps as the tabs read: mirrored when the figure is right to left. */
Player.prototype.onTabKey = function (event) {
  var count = this.steps().length;
  var rtl = window.getComputedStyle(event.currentTarget).direction === "rtl";
  var target = null;
  if (event.key === "ArrowRight") { target = this.step + (rtl ? -1 : 1); }
  else if (event.key === "ArrowLeft") { target = this.step + (rtl ? 1 : -1); }
  else if (event.key === "Home") { target = 0; }
  else if (event.key === "End") { target = count - 1; }
  if (target === null) { return; }
  event.preventDefault();
  this.go(target, true);
  this.tabs()[this.step].focus();
};

Player.prototype.start = function () {
  var self = this;
  this.scenes.forEach(function (scene, index) {
    Array.prototype.forEach.call(scene.querySelectorAll("svg"), function (svg) {
      svg.setAttribute("data-mech-player", "");
    });
    /* Each scene keeps its title above its drawing: the scenario menu, further down, may cut a long one short. */
    scene.hidden = index !== self.scenario;
  });
  this.root.querySelector(".mech-controls").hidden = false;
  /* A figure wider than its column scrolls in its frame: then the frame takes keyboard focus, so that
     the arrow keys scroll it (WCAG 2.2 SC 2.1.1); a frame that fits is no tab stop. */
  var frames = function () {
    self.canvases.forEach(function (canvas) {
      var scrolls = canvas.scrollWidth > canvas.clientWidth + 1;
      /* The explorer's tree is the frame's stop when there is one: it brings what it focuses into view. */
      if (scrolls && !self.explorer) { canvas.setAttribute("tabindex", "0"); } else { canvas.removeAttribute("tabindex"); }
      self.hold(canvas);
      self.follow(canvas);
      self.edges(canvas);
    });
    self.stuck();
  };
  /* While the drawing scrolls in its frame, its state panel moves with the frame, so it stays in view, and a
     sequence's heads strip scrolls with it. */
  this.canvases.forEach(function (canvas) {
    canvas.addEventListener("scroll", function () { self.hold(canvas); self.follow(canvas); self.edges(canvas); },
                            { passive: true });
  });
  /* A sequence's heads strip (figure.html) is shown: it keeps the participants' heads in view while the page
     scrolls the drawing by, marked stuck (the style sheet shades its foot) while it is. */
  this.strips = [];
  this.scenes.forEach(function (scene) {
    var strip = scene.querySelector("[data-mech-heads]");
    /* A copy of the drawing's heads: shown, it is hidden from assistive technology, which has the drawing's own. */
    if (strip) { strip.setAttribute("aria-hidden", "true"); strip.hidden = false; self.strips.push(strip); }
  });
  this.onScroll = function () { self.stuck(); self.holdAll(); };
  document.addEventListener("scroll", this.onScroll, { capture: true, passive: true });
  /* The markup is a figure without a player: the step buttons become tabs (WAI-ARIA tablist, tab and
     tabpanel roles) only here, where they are shown and work.  show() sets aria-selected and tabindex. */
  var caption = this.root.querySelector("figcaption");  /* a site's figure.html may have none */
  this.canvases.forEach(function (canvas) {
    canvas.setAttribute("role", "tabpanel");
    if (caption && caption.id) { canvas.setAttribute("aria-labelledby", caption.id); }
  });
  /* The explorer's section, below: a figure built with its structure has one. */
  this.explorer = this.data.scenarios.some(function (s) { return s.explore; }) ? new Explorer(this) : null;
  frames();
  this.frames = frames;
  window.addEventListener("resize", frames);
  /* A frame's width changes with its column too, not only with the window (a site's sidebar opening). */
  this.resizes = window.ResizeObserver ? new window.ResizeObserver(function () { frames(); }) : null;
  this.watch();
  this.tablists.forEach(function (list, index) {
    list.setAttribute("role", "tablist");
    list.addEventListener("keydown", function (event) { self.onTabKey(event); });
    Array.prototype.forEach.call(list.querySelectorAll(".mech-tab"), function (tab, step) {
      tab.setAttribute("role", "tab");
      tab.addEventListener("click", function () { if (index === self.scenario) { self.go(step, true); } });
    });
  });
  this.status.hidden = false;
  this.playButton.addEventListener("click", function () {
    if (self.playing) { self.pause(); } else { self.play(); }
  });
  this.root.querySelector(".mech-prev").addEventListener("click", function () { self.go(self.step - 1, true); });
  this.root.querySelector(".mech-next").addEventListener("click", function () { self.go(self.step + 1, true); });
  if (this.select) {
    this.select.addEventListener("change", function () { self.choose(Number(self.select.value)); });
  }
  /* Rotation stops when keyboard focus enters the player, and then restarts only when the user presses Play.
     It also stops while a mouse pointer rests on the figure (for HOVER_REST_MS), and restarts when the pointer
     leaves it, unless the reader pressed Pause (or focus came in) meanwhile: Pause is what stops it for good
     (WCAG 2.2 SC 2.2.2).  Only the figure counts, and only a rest: a pointer on its way to "Pause animation"
     must find that label still there when it clicks.  Touch and pen have no dependable hover: their
     pointerenter comes with the press itself, so pausing then would make a tap on "Pause animation"
     pause and at once play again.  For the same reason the focus that a press (not the keyboard)
     gives the Pause/Play button leaves the decision to that button's click. */
  this.stage.addEventListener("focusin", function (event) {
    if (self.stage.contains(event.relatedTarget)) { return; }
    if (event.target === self.playButton && !focusVisible(event.target)) { return; }
    self.pause();
  });
  var figure = this.root.querySelector(".mech-figure");
  var rest = null;
  figure.addEventListener("pointerenter", function (event) {
    if (event.pointerType !== "mouse") { return; }
    window.clearTimeout(rest);
    rest = window.setTimeout(function () {
      if (self.playing) { self.pause(); self.hoverPaused = true; }
    }, HOVER_REST_MS);
  });
  figure.addEventListener("pointerleave", function () {
    window.clearTimeout(rest);
    if (self.hoverPaused) { self.play(); }
  });
  this.show();
  if (this.reducedMotion) {
    this.pause();
    this.status.textContent = this.describe() + " " + this.words.reducedMotion;
  } else {
    this.play();
  }
};

/* "Step N of M: title." and the state, in the spec's language, author text isolated (written by the build). */
Player.prototype.describe = function () { return this.steps()[this.step].announcement; };

/* Mark step ``step``'s frame with ``name`` in every layout: data-mech-current, the step whose text shows (the
   panel, the labels' colour and weight), or data-mech-shown, the step whose picture shows (the highlights). */
Player.prototype.mark = function (name, step) {
  this.svgs().forEach(function (svg) {
    var old = svg.querySelector("[" + name + "]");
    if (old) { old.removeAttribute(name); }
    var frame = svg.querySelector("[data-mech-frame='" + (step + 1) + "']");
    if (frame) { frame.setAttribute(name, ""); }
  });
};

/* The picture of step ``step``: its highlights ease in, the others out.  ``jump`` (a step the reader chose) starts
   the eases half-way, so that the picture changes with the text at once; otherwise the player moves the picture
   half an ease before the text, so that both change together at the step boundary, as in the SVG. */
Player.prototype.showPicture = function (step, jump) {
  this.svgs().forEach(function (svg) {
    if (jump) { svg.setAttribute("data-mech-jump", ""); } else { svg.removeAttribute("data-mech-jump"); }
  });
  if (this.picture === step) { return; }
  this.picture = step;
  this.mark("data-mech-shown", step);
  var self = this;
  this.svgs().forEach(function (svg) {
    var frame = svg.querySelector("[data-mech-frame='" + (step + 1) + "']");
    if (frame && svg.closest("[data-mech-canvas]")) { self.reveal(frame); }  /* a heads strip follows its frame */
  });
  this.canvases.forEach(function (canvas) { self.hold(canvas); });  /* off the step's highlighted boxes */
};

Player.prototype.show = function (jump) {
  this.mark("data-mech-current", this.step);
  this.showPicture(this.step, Boolean(jump));
  var selected = this.step;
  this.tabs().forEach(function (tab, index) {
    tab.setAttribute("aria-selected", index === selected ? "true" : "false");
    tab.setAttribute("tabindex", index === selected ? "0" : "-1");
  });
  this.status.textContent = this.describe();
  if (this.explorer) { this.explorer.refresh(); }
};

/* In a figure that scrolls in its frame, bring what the step highlights into view (:js:func:`highlighted`, of the
   drawing shown: the hidden layout's boxes have no place on the page), moving the drawing only as far as that takes:
   what is already in view leaves it where the reader put it, and the page itself never scrolls.  What is wider
   than the frame shows from its start. */
Player.prototype.reveal = function (frame) {
  var canvas = this.scenes[this.scenario].querySelector("[data-mech-canvas]");
  var svg = frame.ownerSVGElement;
  var shown = this.highlighted(svg, frame.getAttribute("data-mech-frame"));
  if (!canvas || !shown.length || !svg.getClientRects().length || canvas.scrollWidth <= canvas.clientWidth + 1) {
    return;
  }
  var view = canvas.getBoundingClientRect();
  /* A lane grid's names, held at the frame's left edge, cover the drawing under them: the view starts right of them. */
  var names = svg.parentNode.querySelector(".mech-lane-names");
  var viewLeft = names ? Math.max(view.left, names.getBoundingClientRect().right) : view.left;
  var left = Infinity, right = -Infinity;
  shown.forEach(function (element) {
    var r = element.getBoundingClientRect();
    left = Math.min(left, r.left);
    right = Math.max(right, r.right);
  });
  var shift = 0;
  if (left - REVEAL_MARGIN_PX < viewLeft || right - left + 2 * REVEAL_MARGIN_PX > view.right - viewLeft) {
    shift = left - REVEAL_MARGIN_PX - viewLeft;
  } else if (right + REVEAL_MARGIN_PX > view.right) {
    shift = right + REVEAL_MARGIN_PX - view.right;
  }
  if (shift) { canvas.scrollLeft += shift; }
};

/* Hold the state panel of a drawing in view.  Sideways, while the drawing scrolls in its frame: the drawing's
   style sheet moves the panel (its box, heading and values) and the marks' legend over it by --mech-hold-x user
   units, as far as brings it HOLD_MARGIN units inside the frame (a panel wider than the frame, to its left
   edge).  Up, while the page shows the drawing but not the panel under it (a phone's tall column): the panel
   alone moves up by --mech-hold-y, to HOLD_MARGIN units above the window's foot, over the drawing's foot and
   marked data-mech-held="foot" (a shadow), as long as the drawing shown above it is at least as tall as the panel;
   it never rises above its drawing's top.  Where it would cover a box the step highlights, it is held at the
   window's top instead (data-mech-held="top"), where that covers none, else not at all.  A sequence's heads strip
   stuck at the window's top covers the drawing under it: the drawing shown is what is left between them (a DNS
   lookup's strip, 320 px of a 700 px window, and a held panel hid every row).  Measured from the boxes on the page,
   so the page's direction does not matter. */
Player.prototype.hold = function (canvas) {
  var self = this;
  var view = canvas.getBoundingClientRect();
  var strip = canvas.parentElement.querySelector("[data-mech-heads][data-mech-stuck]");
  var covered = strip ? Math.max(0, strip.getBoundingClientRect().bottom) : 0;  /* px from the window's top */
  Array.prototype.forEach.call(canvas.querySelectorAll("svg"), function (svg) {
    var box = svg.getBoundingClientRect();
    var panel = svg.querySelector("rect[class$='-panel']");
    if (!box.width || !panel) { return; }
    var unit = svg.viewBox.baseVal.width / box.width;
    var left = (view.left - box.left) * unit + HOLD_MARGIN, right = (view.right - box.left) * unit - HOLD_MARGIN;
    var x = Number(panel.getAttribute("x")), w = Number(panel.getAttribute("width"));
    var shift = 0;
    if (x < left) { shift = left - x; }
    if (w <= right - left && x + w + shift > right) { shift = right - x - w; }
    if (shift) { svg.style.setProperty("--mech-hold-x", shift.toFixed(1) + "px"); }
    else { svg.style.removeProperty("--mech-hold-x"); }
    var y = Number(panel.getAttribute("y")), h = Number(panel.getAttribute("height"));
    var foot = (window.innerHeight - box.top) * unit - HOLD_MARGIN;  /* the window's foot, in user units */
    var top = (Math.max(0, covered) - box.top) * unit + HOLD_MARGIN;  /* the window's top, under a stuck strip */
    var shown = foot - h - Math.max(0, (covered - box.top) * unit);  /* the drawing shown beside a held panel */
    var rise = y + h > foot && shown >= h ? Math.min(y + h - foot, y) : 0;
    /* The step's highlighted boxes, in user units: a panel held over them hid what the step is about (a
       designer's review: the serving stack's Sampler at 360 px).  It is held at the window's top instead, where
       that covers none (and not above its drawing's top), else not held. */
    var active = self.activeBoxes(svg, box, unit);
    var over = function (from) {
      return active.some(function (r) {
        return r[1] < from + h && r[3] > from && r[0] < x + shift + w && r[2] > x + shift;
      });
    };
    var edge = "foot";
    if (rise > 0 && over(y - rise)) {
      rise = top > 0 && top + h < y && !over(top) ? y - top : 0;
      edge = "top";
    }
    if (rise > 0) { svg.style.setProperty("--mech-hold-y", (-rise).toFixed(1) + "px"); }
    else { svg.style.removeProperty("--mech-hold-y"); }
    var held = rise > 0 ? edge : null;
    if (held !== svg.getAttribute("data-mech-held")) {
      if (held) { svg.setAttribute("data-mech-held", held); } else { svg.removeAttribute("data-mech-held"); }
    }
    /* A lane grid's names, held at the frame's left edge over the drawing, stop at a held panel's top: they
       covered its first words (a designer's review: "refill writes the prompt"); they start under a panel held
       at the window's top. */
    var names = svg.parentElement.querySelector(".mech-lane-names");
    if (names) {
      var place = names.getBoundingClientRect(), panelTop = box.top + (y - rise) / unit;
      var cut = rise > 0 && held === "foot" ? place.bottom - panelTop : 0;
      var under = rise > 0 && held === "top" ? panelTop + h / unit - place.top : 0;
      names.style.clipPath = cut > 0 ? "inset(0 0 " + cut.toFixed(1) + "px 0)" :
        under > 0 ? "inset(" + under.toFixed(1) + "px 0 0 0)" : "";
    }
  });
};

/* What step ``step`` (its frame's number) highlights in ``svg``, as elements: its boxes and, in a sequence, its row's
   messages (their lines, heads and labels) and activation bars; not an active group's whole frame (unless the step
   lights nothing else), nor the row's band, lifelines and number badge, which span the drawing, nor the earlier rows,
   marks or legend lines it shows too.  One
   answer for what auto-scroll brings into view and what a held panel keeps off: the step's every rect included the
   legend and a sequence row's band as wide as the drawing, so auto-scroll took a sequence to its left edge at every
   step. */
Player.prototype.highlighted = function (svg, step) {
  var layers = Array.prototype.slice.call(svg.querySelectorAll("g[data-mech-steps~='" + step + "']"));
  var lit = function (layer, pattern) {
    return Array.prototype.some.call(layer.classList, function (name) { return pattern.test(name); });
  };
  var boxes = layers.filter(function (layer) { return lit(layer, /-on$/); });
  var own = boxes.filter(function (layer) { return !layer.querySelector("rect[class$='-group-on']"); });
  var found = own.length ? own : boxes;
  layers.filter(function (layer) { return lit(layer, /-row-current$/); }).forEach(function (row) {
    Array.prototype.forEach.call(row.children, function (element) {
      if (lit(element, /-(bar-on|flow|head-on|plabel-on)$/)) { found.push(element); }
    });
  });
  return found;
};

/* What the step shown highlights in ``svg`` (its data-mech-shown frame's: :js:func:`highlighted`), each as [left, top,
   right, bottom] in the drawing's user units, ``box`` being the drawing's place on the page and ``unit`` user units a
   CSS px. */
Player.prototype.activeBoxes = function (svg, box, unit) {
  var frame = svg.querySelector("[data-mech-shown]");
  if (!frame) { return []; }
  return this.highlighted(svg, frame.getAttribute("data-mech-frame")).map(function (element) {
    var r = element.getBoundingClientRect();
    return [(r.left - box.left) * unit, (r.top - box.top) * unit,
            (r.right - box.left) * unit, (r.bottom - box.top) * unit];
  });
};

/* Mark each edge of a frame past which its drawing runs on, data-mech-more "left", "right" or both: the style
   sheet fades those edges, a cue that the frame scrolls (a new user took a head cut off at a phone's edge for the
   drawing's end).  Not a sequence's heads strip: faded, it let the drawing under it show through.  The edges are
   the page's left and right, whatever its direction (in a right-to-left page scrollLeft runs from 0 down to minus
   the overflow, and the drawing, laid out left to right, usually runs on at the right).  A lane grid's names, held
   at the left edge, are a cue there of their own and stay unfaded. */
Player.prototype.edges = function (canvas) {
  var over = canvas.scrollWidth - canvas.clientWidth;
  var gone = Math.abs(canvas.scrollLeft);  /* how far the frame has scrolled from its start */
  var left = over > 1 ? (getComputedStyle(canvas).direction === "rtl" ? over - gone : gone) : 0;
  var names = Array.prototype.some.call(canvas.querySelectorAll(".mech-lane-names"), function (each) {
    return each.getClientRects().length > 0;
  });
  var sides = [];
  if (left > 1 && !names) { sides.push("left"); }
  if (over - left > 1) { sides.push("right"); }
  var more = sides.join(" ");
  if (more === (canvas.getAttribute("data-mech-more") || "")) { return; }
  if (more) { canvas.setAttribute("data-mech-more", more); } else { canvas.removeAttribute("data-mech-more"); }
};

/* Hold every shown drawing's panel (hold()) once a frame while the page scrolls. */
Player.prototype.holdAll = function () {
  var self = this;
  if (this.holding) { return; }
  this.holding = true;
  window.requestAnimationFrame(function () {
    self.holding = false;
    self.canvases.forEach(function (canvas) { self.hold(canvas); });
  });
};

/* A sequence's heads strip over ``canvas`` shows the part of the heads the frame shows: scrolled as far as it.
   Both have the figure's direction, so one scrollLeft means the same place in both, left to right or right to
   left. */
Player.prototype.follow = function (canvas) {
  var strip = canvas.parentElement.querySelector("[data-mech-heads]");
  if (strip && strip.scrollLeft !== canvas.scrollLeft) { strip.scrollLeft = canvas.scrollLeft; }
};

/* Mark each shown heads strip stuck (data-mech-stuck) while it is held below the top of its drawing. */
Player.prototype.stuck = function () {
  var self = this;
  this.strips.forEach(function (strip) {
    var canvas = strip.parentElement.querySelector("[data-mech-canvas]");
    var held = strip.getClientRects().length > 0 &&
      strip.getBoundingClientRect().top > canvas.getBoundingClientRect().top + 0.5;
    if (held !== strip.hasAttribute("data-mech-stuck")) { strip.toggleAttribute("data-mech-stuck", held); }
    self.pushed(strip, canvas);
  });
};

/* A stuck heads strip ends where its drawing's rows do: past them it moves up with the page, so that it never
   covers the marks' legend or the state panel under the last row (a designer's review: the heads of a DNS
   lookup sat over its panel while the reader was at the controls). */
Player.prototype.pushed = function (strip, canvas) {
  var svg = null;
  Array.prototype.forEach.call(canvas.querySelectorAll("svg"), function (each) {
    if (each.getClientRects().length) { svg = each; }
  });
  var panel = svg && svg.querySelector("rect[class$='-panel']");
  var push = 0;
  if (panel && strip.hasAttribute("data-mech-stuck")) {
    var box = svg.getBoundingClientRect();
    var end = box.top + Number(panel.getAttribute("y")) * box.width / svg.viewBox.baseVal.width;  /* its own place */
    var legend = svg.querySelector("g[class$='-legend']");
    if (legend && legend.getClientRects().length) { end = Math.min(end, legend.getBoundingClientRect().top); }
    /* measured where it would be unpushed: less the push it has now (its transform's) */
    var now = strip.style.transform ? -new DOMMatrixReadOnly(strip.style.transform).m42 : 0;
    push = Math.max(0, strip.getBoundingClientRect().bottom + now - end);
  }
  var transform = push ? "translateY(" + (-push).toFixed(1) + "px)" : "";
  if (transform !== strip.style.transform) { strip.style.transform = transform; }
};

Player.prototype.now = function () { return window.performance.now(); };

/* The next step comes when the current one's window (the timeline's: the last step held longer) has passed; its
   picture starts easing in half an ease before that. */
Player.prototype.schedule = function () {
  var self = this;
  window.clearTimeout(this.timer);
  window.clearTimeout(this.early);
  this.startedAt = this.now();
  var remaining = Math.max(0, this.steps()[this.step].duration - this.elapsed);
  var next = (this.step + 1) % this.steps().length;
  this.early = window.setTimeout(function () { self.showPicture(next, false); },
                                 Math.max(0, remaining - this.ease() / 2));
  this.timer = window.setTimeout(function () {
    /* Steps that change by themselves are not announced (a step the user chose was, politely). */
    self.status.setAttribute("aria-live", "off");
    self.elapsed = 0;
    self.step = (self.step + 1) % self.steps().length;
    self.show();
    self.schedule();
  }, remaining);
};

/* Play/Pause shows and names what pressing it does: "Pause animation" while playing, else "Play animation". */
Player.prototype.showPlaying = function (playing) {
  if (playing) { this.playButton.setAttribute("data-mech-playing", ""); }
  else { this.playButton.removeAttribute("data-mech-playing"); }
  var pauseName = this.playButton.querySelector(".mech-long .mech-when-playing");
  var playName = this.playButton.querySelector(".mech-long .mech-when-paused");
  (playing ? playName : pauseName).setAttribute("aria-hidden", "true");
  (playing ? pauseName : playName).removeAttribute("aria-hidden");
};

Player.prototype.play = function () {
  this.playing = true;
  this.hoverPaused = false;
  this.status.setAttribute("aria-live", "off");
  this.showPlaying(true);
  this.svgs().forEach(function (svg) { svg.removeAttribute("data-mech-paused"); });
  this.schedule();
};

Player.prototype.pause = function () {
  if (this.playing) {
    this.elapsed += this.now() - this.startedAt;
  }
  window.clearTimeout(this.timer);
  window.clearTimeout(this.early);
  this.timer = null;
  this.playing = false;
  this.hoverPaused = false;
  this.showPicture(this.step, false);  /* a picture already easing towards the next step goes back */
  this.status.setAttribute("aria-live", "polite");
  this.showPlaying(false);
  this.svgs().forEach(function (svg) { svg.setAttribute("data-mech-paused", ""); });
};

Player.prototype.go = function (step, byUser) {
  var count = this.steps().length;
  this.step = (step + count) % count;
  this.elapsed = 0;
  if (byUser) { this.status.setAttribute("aria-live", "polite"); }
  this.show(byUser);
  if (this.playing) { this.schedule(); }
};

Player.prototype.choose = function (index) {
  var wasPlaying = this.playing;
  if (wasPlaying) { this.pause(); }
  this.svgs().forEach(function (svg) { svg.removeAttribute("data-mech-paused"); });
  this.scenes[this.scenario].hidden = true;
  this.tablists[this.scenario].hidden = true;
  this.scenario = index;
  this.scenes[index].hidden = false;
  this.picture = null;
  this.tablists[index].hidden = false;
  this.frames();  /* the chosen scene's frames: their stops, holds and faded edges */
  this.go(0, true);
  if (wasPlaying) { this.play(); } else { this.pause(); }
  /* The reader chose this scenario: its first step is announced (politely), as after Previous or Next,
     even when it goes on playing (play() silenced the region; the next automatic step silences it again). */
  this.status.setAttribute("aria-live", "polite");
};

/* Taken off the page (a site swapping its content): no timer or window listener is left behind. */
Player.prototype.suspend = function () {
  this.wasPlaying = this.playing;
  if (this.playing) { this.pause(); }
  window.removeEventListener("resize", this.frames);
  document.removeEventListener("scroll", this.onScroll, { capture: true });
  if (this.resizes) { this.resizes.disconnect(); }
};

/* Watch every frame's size (frames() on each change), where the browser can. */
Player.prototype.watch = function () {
  var resizes = this.resizes;
  if (resizes) { this.canvases.forEach(function (canvas) { resizes.observe(canvas); }); }
};

/* Put back on the page: as it was when it was taken off. */
Player.prototype.resume = function () {
  window.addEventListener("resize", this.frames);
  document.addEventListener("scroll", this.onScroll, { capture: true, passive: true });
  this.watch();
  this.frames();
  if (this.wasPlaying) { this.play(); }
};

/* ==== Explorer (issue 31): the drawing's structure, walked by keyboard and heard by a screen reader ==========
   One structure a scenario, built here from what the build wrote (render/explore.py: items in tree order, each
   with what it says before and after its state in the current step), inside the scenario's frame (the
   tabpanel), visually hidden: a sighted reader sees a ring drawn on the focused box or arrow in the shown
   drawing instead.  Roving tabindex (one element is the structure's single Tab stop, and it replaces the
   scrolling frame's), which Chromium and WebKit both follow.  Page Up and Page Down change the step, and every
   name follows it without moving the focus.  Every word is the build's.
   A layered graph's is a WAI-ARIA tree (Authoring Practices 1.2, Tree View): Up and Down move through the open
   items; Right opens an item, enters it or follows an arrow to its other end, Left closes an item or goes to its
   parent (both mirrored right to left); Enter follows an arrow or opens and closes; Home and End; Escape goes up
   a level, and from the top back to the step tabs.
   A lane grid's and a sequence's is a WAI-ARIA grid (Data Grid): a row per lane (a column per time), or a row
   per step (a column per participant).  Arrow keys move by cell (Left and Right mirrored right to left), Home
   and End to the row's ends, Control+Home and Control+End to the grid's; a row's header is its lane, a
   sequence's column header its participant: the level above the cells, which Enter enters and Escape returns
   to (Enter on a sequence's row header shows its step).  Enter on a cell goes into its arrows (Up and Down move
   through them, Enter follows one to the cell at its other end, Escape comes back to the cell); Escape from a
   header goes back to the step tabs. */
var SVG_NS = "http://www.w3.org/2000/svg";

/* ``template`` with {first} and {rest} (the catalogue's exploreJoin) filled in once each. */
function joinWords(template, first, rest) {
  return template.replace(/\{(first|rest)\}/g, function (match, name) { return name === "first" ? first : rest; });
}

function Explorer(player) {
  this.player = player;
  this.words = player.data.words;
  this.trees = [];
  var self = this;
  /* A change of width may show another layout: the focused stop's ring is brought into view in it. */
  window.addEventListener("resize", function () {
    var tree = self.trees[player.scenario];
    if (tree && tree.ringed && tree.root.contains(document.activeElement)) { self.ringShapes(tree, tree.ringed); }
  });
  player.scenes.forEach(function (scene, index) {
    var data = player.data.scenarios[index].explore;
    var canvas = scene.querySelector("[data-mech-canvas]");
    self.trees.push(!data || !canvas ? null : data.grid ? self.buildGrid(data, canvas, index)
                    : self.build(data, canvas, index));
  });
}

/* The tree of one scenario: nested lists, each item's children in a group. */
Explorer.prototype.build = function (data, canvas, scenario) {
  var self = this;
  var root = document.createElement("ul");
  root.className = "mech-explore";
  root.setAttribute("role", "tree");
  root.setAttribute("aria-label", data.name);
  var tree = { data: data, root: root, elements: [], open: [], current: 0, scenario: scenario };
  var groups = [];
  data.items.forEach(function (item, index) {
    var li = document.createElement("li");
    li.className = "mech-explore-item";
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(item.level));
    li.setAttribute("tabindex", index === 0 ? "0" : "-1");
    li.setAttribute("data-mech-item", String(index));
    tree.elements.push(li);
    tree.open.push(false);
    var parent = item.parent < 0 ? root : groups[item.parent];
    parent.appendChild(li);
    if (data.items.some(function (other) { return other.parent === index; })) {
      var group = document.createElement("ul");
      group.setAttribute("role", "group");
      li.appendChild(group);
      li.setAttribute("aria-expanded", "false");
      groups[index] = group;
    }
  });
  root.addEventListener("keydown", function (event) { self.onKey(tree, event); });
  root.addEventListener("focusin", function (event) {
    var index = Number(event.target.getAttribute("data-mech-item"));
    if (isNaN(index)) { return; }
    /* However focus came (keys, a click, a screen reader's focus mode), it is the tree's one stop now. */
    tree.elements[tree.current].setAttribute("tabindex", "-1");
    event.target.setAttribute("tabindex", "0");
    tree.current = index;
    self.ring(tree, index);
  });
  root.addEventListener("focusout", function (event) {
    if (!root.contains(event.relatedTarget)) { self.unring(tree); }
  });
  canvas.appendChild(root);
  return tree;
};

/* What a step says of an item beyond active or used: the phrases the step's data gives it (the text a step's
   labels gave it, its mark), already in the reader's words. */
Explorer.prototype.extraStates = function (step, key) {
  return (step.states && step.states[key]) || [];
};

/* An item's accessible name in step ``step``: its head, its state, its tail (a box's arrows). */
Explorer.prototype.name = function (item, step) {
  var words = this.words;
  var parts = [item.head];
  if (item.kind === "node" || item.kind === "arrow") {
    var on = (step.on || []).indexOf(item.key) >= 0;
    if (item.kind === "node") { parts.push(on ? words.exploreActive : words.exploreInactive); }
    else { parts.push(on ? words.exploreUsed : words.exploreUnused); }
    parts = parts.concat(this.extraStates(step, item.key));
  }
  if (item.tail) { parts.push(item.tail); }
  var text = parts[parts.length - 1];
  for (var i = parts.length - 2; i >= 0; i -= 1) { text = joinWords(words.exploreJoin, parts[i], text); }
  return text;
};

/* Every item of the current scenario says what it is in the current step (focus stays where it is). */
Explorer.prototype.refresh = function () {
  var tree = this.trees[this.player.scenario];
  if (!tree) { return; }
  if (tree.grid) { this.refreshGrid(tree); return; }
  var step = this.player.steps()[this.player.step];
  var self = this;
  tree.data.items.forEach(function (item, index) {
    setLabel(tree.elements[index], self.name(item, step));
  });
};

function setLabel(element, name) {
  if (element.getAttribute("aria-label") !== name) { element.setAttribute("aria-label", name); }
}

/* The items shown: those whose every ancestor is open. */
Explorer.prototype.visible = function (tree) {
  var items = tree.data.items;
  return items.map(function (item, index) { return index; }).filter(function (index) {
    for (var p = items[index].parent; p >= 0; p = items[p].parent) { if (!tree.open[p]) { return false; } }
    return true;
  });
};

Explorer.prototype.setOpen = function (tree, index, open) {
  tree.open[index] = open;
  tree.elements[index].setAttribute("aria-expanded", open ? "true" : "false");
};

Explorer.prototype.moveTo = function (tree, index) {
  for (var p = tree.data.items[index].parent; p >= 0; p = tree.data.items[p].parent) { this.setOpen(tree, p, true); }
  tree.elements[tree.current].setAttribute("tabindex", "-1");
  tree.current = index;
  tree.elements[index].setAttribute("tabindex", "0");
  tree.elements[index].focus({ preventScroll: true });
};

Explorer.prototype.onKey = function (tree, event) {
  if (event.altKey || event.metaKey || event.shiftKey || event.ctrlKey) { return; }
  var items = tree.data.items;
  var index = tree.current;
  var item = items[index];
  var hasChildren = tree.elements[index].hasAttribute("aria-expanded");
  var rtl = window.getComputedStyle(tree.root).direction === "rtl";
  var key = event.key;
  if (rtl && key === "ArrowRight") { key = "ArrowLeft"; } else if (rtl && key === "ArrowLeft") { key = "ArrowRight"; }
  var shown = this.visible(tree);
  var at = shown.indexOf(index);
  var player = this.player;
  if (key === "ArrowDown") { if (at < shown.length - 1) { this.moveTo(tree, shown[at + 1]); } }
  else if (key === "ArrowUp") { if (at > 0) { this.moveTo(tree, shown[at - 1]); } }
  else if (key === "Home") { this.moveTo(tree, shown[0]); }
  else if (key === "End") { this.moveTo(tree, shown[shown.length - 1]); }
  else if (key === "ArrowRight" || key === "Enter") {
    if (item.kind === "arrow") { this.moveTo(tree, item.far); }
    else if (hasChildren && !tree.open[index]) { this.setOpen(tree, index, true); }
    else if (hasChildren && key === "ArrowRight") { this.moveTo(tree, index + 1); }
    else if (hasChildren) { this.setOpen(tree, index, false); }
  }
  else if (key === "ArrowLeft") {
    if (hasChildren && tree.open[index]) { this.setOpen(tree, index, false); }
    else if (item.parent >= 0) { this.moveTo(tree, item.parent); }
  }
  else if (key === "Escape") {
    if (item.parent >= 0) { this.moveTo(tree, item.parent); }
    else { player.tabs()[player.step].focus(); }
  }
  else if (key === "PageDown" || key === "PageUp") { player.go(player.step + (key === "PageDown" ? 1 : -1), true); }
  else { return; }
  event.preventDefault();
};

/* The shapes an item's ring takes in layout ``layout``: its own, or a lane's boxes' bounds. */
Explorer.prototype.shapesOf = function (tree, index, layout) {
  var shapes = tree.data.shapes[layout] || {};
  var item = tree.data.items[index];
  if (item.kind !== "group") { return shapes[item.key] ? [shapes[item.key]] : []; }
  var left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  tree.data.items.forEach(function (other) {
    var r = other.parent === index && shapes[other.key] && shapes[other.key].r;
    if (!r) { return; }
    left = Math.min(left, r[0]); top = Math.min(top, r[1]);
    right = Math.max(right, r[0] + r[2]); bottom = Math.max(bottom, r[1] + r[3]);
  });
  return left < Infinity ? [{ r: [left, top, right - left, bottom - top] }] : [];
};

function svgChild(parent, tag, attributes) {
  var element = document.createElementNS(SVG_NS, tag);
  Object.keys(attributes).forEach(function (name) { element.setAttribute(name, attributes[name]); });
  parent.appendChild(element);
  return element;
}

/* Draw the focus ring of item ``index`` over every layout of its scenario (the shown one is seen), and bring
   it into view in its frame. */
Explorer.prototype.ring = function (tree, index) {
  var self = this;
  this.ringShapes(tree, function (layout) { return self.shapesOf(tree, index, layout); });
};

/* Draw the ring of the shapes ``shapesIn(layout)`` gives over every layout of the scenario of ``tree`` (a tree
   or a grid), and bring the shown one into view in its frame. */
Explorer.prototype.ringShapes = function (tree, shapesIn) {
  tree.ringed = shapesIn;  /* drawn again where a resize shows another layout */
  this.unring(tree);
  var seen = null;
  Array.prototype.forEach.call(this.player.scenes[tree.scenario].querySelectorAll("[data-mech-canvas] svg[role=img]"), function (svg, layout) {
    var ring = svgChild(svg, "g", { "class": "mech-focus", "aria-hidden": "true" });
    shapesIn(layout).forEach(function (shape) {
      if (shape.r) {
        svgChild(ring, "rect", { "class": "mech-focus-ring", x: shape.r[0], y: shape.r[1], width: shape.r[2],
                                 height: shape.r[3], rx: 10 });
      }
      if (shape.d) {
        svgChild(ring, "path", { "class": "mech-focus-casing", d: shape.d });
        svgChild(ring, "path", { "class": "mech-focus-gap", d: shape.d });
        svgChild(ring, "path", { "class": "mech-focus-line", d: shape.d });
        svgChild(ring, "polygon", { "class": "mech-focus-head", points: shape.h });
      }
      if (shape.l) {
        svgChild(ring, "rect", { "class": "mech-focus-ring", x: shape.l[0], y: shape.l[1], width: shape.l[2],
                                 height: shape.l[3], rx: 4 });
      }
    });
    if (svg.getClientRects().length && ring.firstChild) { seen = ring; }
  });
  if (seen && seen.scrollIntoView) {
    seen.scrollIntoView({ block: "nearest", inline: "nearest" });
    /* A sequence's heads strip, held at the top of the view, must not cover it: the page scrolls back by as much. */
    this.player.stuck();
    var strip = this.player.scenes[tree.scenario].querySelector("[data-mech-heads]");
    var ring = seen.getBoundingClientRect();
    var held = strip && strip.hasAttribute("data-mech-stuck") ? strip.getBoundingClientRect() : null;
    if (held && ring.top < held.bottom && ring.bottom > held.top) {
      window.scrollBy(0, ring.top - held.bottom - REVEAL_MARGIN_PX);
    }
    /* Nor a lane grid's names, held at its frame's left edge while it scrolls: the frame scrolls back. */
    var names = seen.ownerSVGElement.parentElement.querySelector(".mech-lane-names");
    var canvas = seen.ownerSVGElement.closest("[data-mech-canvas]");
    var edge = names && names.getClientRects().length ? names.getBoundingClientRect().right : null;
    ring = seen.getBoundingClientRect();
    if (edge !== null && canvas.scrollLeft > 0 && ring.left < edge) {
      canvas.scrollLeft -= edge - ring.left + REVEAL_MARGIN_PX;
    }
  }
};

Explorer.prototype.unring = function (tree) {
  Array.prototype.forEach.call(this.player.scenes[tree.scenario].querySelectorAll(".mech-focus"), function (ring) {
    ring.parentNode.removeChild(ring);
  });
};
/* ---- The grid of a lane grid or a sequence (render/explore.py ``grid``) ----------------------------------
   Positions are (r, c): row 0 the column headers, column 0 the row headers, cells from (1, 1); ``a`` is the
   arrow of the cell the focus is on, -1 on the cell itself. */
Explorer.prototype.buildGrid = function (data, canvas, scenario) {
  var self = this;
  var spec = data.grid;
  var root = document.createElement("div");
  root.className = "mech-explore";
  root.setAttribute("role", "grid");
  root.setAttribute("aria-label", spec.name);
  var g = { grid: spec, data: data, root: root, scenario: scenario, at: { r: 1, c: 1, a: -1 },
            elements: [], arrows: [] };
  function cell(row, role, r, c) {
    var element = document.createElement("div");
    element.setAttribute("role", role);
    element.setAttribute("aria-colindex", String(c + 1));
    element.setAttribute("data-mech-r", String(r));
    element.setAttribute("data-mech-c", String(c));
    row.appendChild(element);
    g.elements[r][c] = element;
    return element;
  }
  [null].concat(spec.rows).forEach(function (rowData, r) {  /* row 0: the column headers */
    var row = document.createElement("div");
    row.setAttribute("role", "row");
    row.setAttribute("aria-rowindex", String(r + 1));
    root.appendChild(row);
    g.elements.push([]);
    g.arrows.push([]);
    if (r === 0) {
      spec.columns.forEach(function (column, c) {
        var header = cell(row, "columnheader", 0, c + 1);
        if (column.item < 0) { header.textContent = column.head; }
      });
      return;
    }
    cell(row, "rowheader", r, 0);
    rowData.cells.forEach(function (cellData, c) {
      var element = cell(row, "gridcell", r, c + 1);
      g.arrows[r][c + 1] = cellData.arrows.map(function (item, a) {
        var arrow = document.createElement("span");
        arrow.setAttribute("role", "button");
        arrow.setAttribute("data-mech-r", String(r));
        arrow.setAttribute("data-mech-c", String(c + 1));
        arrow.setAttribute("data-mech-a", String(a));
        element.appendChild(arrow);
        return arrow;
      });
    });
  });
  this.eachStop(g, function (element, r, c, a) {
    element.className = "mech-explore-item";
    element.setAttribute("tabindex", r === 1 && c === 1 && a < 0 ? "0" : "-1");
    var item = self.itemAt(g, r, c, a);
    if (item >= 0) { element.setAttribute("data-mech-item", String(item)); }
  });
  root.addEventListener("keydown", function (event) { self.onGridKey(g, event); });
  root.addEventListener("focusin", function (event) {
    var at = self.positionOf(event.target);
    if (!at) { return; }
    /* However focus came (keys, a click, a screen reader's focus mode), it is the grid's one stop now. */
    self.stopAt(g, g.at).setAttribute("tabindex", "-1");
    event.target.setAttribute("tabindex", "0");
    g.at = at;
    self.ringShapes(g, function (layout) { return self.gridShapes(g, at, layout); });
  });
  root.addEventListener("focusout", function (event) {
    if (!root.contains(event.relatedTarget)) { self.unring(g); }
  });
  canvas.appendChild(root);
  this.refreshGrid(g);
  return g;
};

/* ``visit(element, r, c, a)`` for every element of the grid the focus can reach. */
Explorer.prototype.eachStop = function (g, visit) {
  var self = this;
  g.elements.forEach(function (row, r) {
    row.forEach(function (element, c) {
      if (element && self.focusable(g, r, c)) { visit(element, r, c, -1); }
      (g.arrows[r][c] || []).forEach(function (arrow, a) { visit(arrow, r, c, a); });
    });
  });
};

/* Every cell can be focused, and every row header; a column header when it stands for a participant. */
Explorer.prototype.focusable = function (g, r, c) {
  if (r < 0 || r >= g.elements.length || c < 0 || !g.elements[r][c]) { return false; }
  return r > 0 || g.grid.columns[c - 1].item >= 0;
};

Explorer.prototype.positionOf = function (element) {
  if (!element.hasAttribute || !element.hasAttribute("data-mech-r")) { return null; }
  var a = element.getAttribute("data-mech-a");
  return { r: Number(element.getAttribute("data-mech-r")), c: Number(element.getAttribute("data-mech-c")),
           a: a === null ? -1 : Number(a) };
};

/* The structure's item at a position (a box, a lane, a participant or an arrow), or -1. */
Explorer.prototype.itemAt = function (g, r, c, a) {
  if (r === 0) { return g.grid.columns[c - 1].item; }
  var row = g.grid.rows[r - 1];
  if (c === 0) { return row.item; }
  var cell = row.cells[c - 1];
  return a >= 0 ? cell.arrows[a] : cell.item;
};

/* The step a position speaks of: its row's, in a sequence; else the current one (the first, in a scenario
   not shown). */
Explorer.prototype.stepAt = function (g, r) {
  var steps = this.player.data.scenarios[g.scenario].steps;
  var row = r > 0 ? g.grid.rows[r - 1] : null;
  var current = g.scenario === this.player.scenario ? this.player.step : 0;
  return steps[row && row.step >= 0 ? row.step : current];
};

Explorer.prototype.refreshGrid = function (g) {
  var self = this;
  var items = g.data.items;
  this.eachStop(g, function (element, r, c, a) {
    var item = self.itemAt(g, r, c, a);
    var fixed = r === 0 ? "" : c === 0 ? g.grid.rows[r - 1].head : a < 0 ? g.grid.rows[r - 1].cells[c - 1].name : "";
    var name = item >= 0 ? self.name(items[item], self.stepAt(g, r)) : fixed;
    /* A header has its name as its text too (axe's empty-table-header asks for text; WebKit names it by label). */
    setLabel(element, name);
    if ((r === 0 || c === 0) && element.textContent !== name) { element.textContent = name; }
    if (c === 0 && r > 0 && g.grid.rows[r - 1].step >= 0) {
      if (g.scenario === self.player.scenario && g.grid.rows[r - 1].step === self.player.step) { element.setAttribute("aria-current", "step"); }
      else { element.removeAttribute("aria-current"); }
    }
  });
};

/* The element at a position: a cell or header, or with ``a`` one of a cell's arrows. */
Explorer.prototype.stopAt = function (g, at) {
  return at.a >= 0 ? g.arrows[at.r][at.c][at.a] : g.elements[at.r][at.c];
};

Explorer.prototype.gridMoveTo = function (g, r, c, a) {
  var current = this.stopAt(g, g.at);
  var next = this.stopAt(g, { r: r, c: c, a: a });
  current.setAttribute("tabindex", "-1");
  next.setAttribute("tabindex", "0");
  g.at = { r: r, c: c, a: a };
  next.focus({ preventScroll: true });
};

Explorer.prototype.onGridKey = function (g, event) {
  if (event.altKey || event.metaKey || event.shiftKey) { return; }  /* the browser's and the reader's keys */
  var at = g.at, r = at.r, c = at.c;
  var grid = g.grid;
  var key = event.key;
  var rtl = window.getComputedStyle(g.root).direction === "rtl";
  if (rtl && key === "ArrowRight") { key = "ArrowLeft"; } else if (rtl && key === "ArrowLeft") { key = "ArrowRight"; }
  var player = this.player;
  var self = this;
  function go(row, column) { if (self.focusable(g, row, column)) { self.gridMoveTo(g, row, column, -1); } }
  function ends(cells, last) {  /* the first (last) focusable of ``cells``, a list of [r, c] */
    var found = cells.filter(function (p) { return self.focusable(g, p[0], p[1]); });
    if (found.length) { go.apply(null, found[last ? found.length - 1 : 0]); }
  }
  if (key === "PageDown" || key === "PageUp") { player.go(player.step + (key === "PageDown" ? 1 : -1), true); }
  else if (at.a >= 0) {
    var arrows = g.arrows[r][c];
    if (key === "ArrowDown" || key === "ArrowRight") { this.gridMoveTo(g, r, c, Math.min(at.a + 1, arrows.length - 1)); }
    else if (key === "ArrowUp" || key === "ArrowLeft") { this.gridMoveTo(g, r, c, Math.max(at.a - 1, 0)); }
    else if (key === "Home") { this.gridMoveTo(g, r, c, 0); }
    else if (key === "End") { this.gridMoveTo(g, r, c, arrows.length - 1); }
    else if (key === "Enter" || key === " ") { this.follow(g, r, grid.rows[r - 1].cells[c - 1].arrows[at.a]); }
    else if (key === "Escape") { go(r, c); }
    else { return; }
  }
  else if (key === "ArrowRight") { go(r, c + 1); }
  else if (key === "ArrowLeft") { go(r, c - 1); }
  else if (key === "ArrowDown") { go(r + 1, c); }
  else if (key === "ArrowUp") { go(r - 1, c); }
  else if ((key === "Home" || key === "End") && event.ctrlKey) {
    var all = [];
    g.elements.forEach(function (row, rr) { row.forEach(function (element, cc) { all.push([rr, cc]); }); });
    ends(all, key === "End");
  }
  else if (key === "Home" || key === "End") {
    ends(g.elements[r].map(function (element, cc) { return [r, cc]; }), key === "End");
  }
  else if (key === "Enter") {
    if (r === 0) { go(1, c); }
    else if (c === 0 && grid.rows[r - 1].step >= 0) { player.go(grid.rows[r - 1].step, true); }
    else if (c === 0) {
      var filled = grid.rows[r - 1].cells.map(function (cell, cc) { return cell.item >= 0 ? cc + 1 : 0; })
        .filter(Boolean);
      go(r, filled.length ? filled[0] : 1);
    }
    else if (g.arrows[r][c].length) { this.gridMoveTo(g, r, c, 0); }
  }
  else if (key === "Escape") {
    if (r > 0 && c > 0) { go.apply(null, grid.rows[r - 1].item >= 0 || !this.focusable(g, 0, c) ? [r, 0] : [0, c]); }
    else { player.tabs()[player.step].focus(); }
  }
  else { return; }
  event.preventDefault();
};

/* Follow arrow item ``item`` from row ``r`` to its other end: the cell of its far box, in a sequence the far
   participant's cell in the same row (the same step). */
Explorer.prototype.follow = function (g, r, item) {
  var far = g.data.items[item].far;
  var grid = g.grid;
  for (var rr = 1; rr <= grid.rows.length; rr += 1) {
    if (grid.rows[r - 1].step >= 0 && rr !== r) { continue; }
    for (var c = 1; c <= grid.columns.length; c += 1) {
      var cell = grid.rows[rr - 1].cells[c - 1];
      if (cell.item === far || (cell.item < 0 && grid.columns[c - 1].item === far)) {
        this.gridMoveTo(g, rr, c, -1);
        return;
      }
    }
  }
};

/* The ring at a position in layout ``layout``: a box's or an arrow's own shape, a lane's boxes' bounds, a
   sequence row's band, a participant's cell (its head's width across its step's row), or an empty cell of a
   lane grid (where its lane and its column meet, from the boxes beside it). */
Explorer.prototype.gridShapes = function (g, at, layout) {
  var shapes = g.data.shapes[layout] || {};
  var items = g.data.items;
  var item = this.itemAt(g, at.r, at.c, at.a);
  var row = at.r > 0 ? g.grid.rows[at.r - 1] : null;
  /* A sequence's message as drawn in this row's step (a message may be sent in several steps). */
  var inRow = item >= 0 && row && row.step >= 0 && shapes["#row" + (row.step + 1) + "/" + items[item].key];
  if (inRow) { return [inRow]; }
  if (item >= 0) { return this.shapesOf(g, item, layout); }
  var band = row.step >= 0 && shapes["#row" + (row.step + 1)];
  if (at.c === 0) { return band ? [band] : []; }
  var cell = row.cells[at.c - 1];
  if (band && shapes[cell.key]) {
    var head = shapes[cell.key].r;
    return [{ r: [head[0], band.r[1], head[2], band.r[3]] }];
  }
  function box(c) { return c.item >= 0 && shapes[items[c.item].key] && shapes[items[c.item].key].r; }
  var inLane = row.cells.map(box).filter(Boolean);
  var inColumn = g.grid.rows.map(function (other) { return box(other.cells[at.c - 1]); }).filter(Boolean);
  if (!inLane.length || !inColumn.length) { return []; }
  var across = !shapes["#lanes"] || shapes["#lanes"].across;  /* lanes are rows, as drawn wide; else columns */
  var lane = inLane[0], time = inColumn[0];
  return [{ r: across ? [time[0], lane[1], time[2], lane[3]] : [lane[0], time[1], lane[2], time[3]] }];
};
/* ==== end of the explorer ==================================================================================== */

class MechDiagram extends HTMLElement {
  connectedCallback() {
    if (this.player) { this.player.resume(); return; }
    if (!this.hasAttribute("data-mech-player") || !this.querySelector(".mech-controls")) {
      /* Connected by the parser before its content (a page that defines the element before the figure's
         markup): set up once the document is parsed. */
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", () => { if (this.isConnected) { this.connectedCallback(); } },
                                  { once: true });
      }
      return;
    }
    uniquifyIds(this);
    this.player = new Player(this);
    this.setAttribute("data-mech-ready", "");
    this.player.start();
  }

  disconnectedCallback() {
    if (this.player) { this.player.suspend(); }
  }
}

if (!window.customElements.get("mech-diagram")) {
  window.customElements.define("mech-diagram", MechDiagram);
}

