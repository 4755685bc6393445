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
  this.playing = false;
  this.reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

Player.prototype.steps = function () { return this.data.scenarios[this.scenario].steps; };

/* The current scene's drawings: one per layout (wide and narrow), of which the style sheet shows one by the
   figure's width.  The player keeps every one at the same step and play state, so that a change of width
   (a turned phone, a resized window) shows the same moment. */
Player.prototype.svgs = function () {
  return Array.prototype.slice.call(this.scenes[this.scenario].querySelectorAll("svg"));
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
      if (scrolls) { canvas.setAttribute("tabindex", "0"); } else { canvas.removeAttribute("tabindex"); }
    });
  };
  /* The markup is a figure without a player: the step buttons become tabs (WAI-ARIA tablist, tab and
     tabpanel roles) only here, where they are shown and work.  show() sets aria-selected and tabindex. */
  var caption = this.root.querySelector("figcaption");  /* a site's figure.html may have none */
  this.canvases.forEach(function (canvas) {
    canvas.setAttribute("role", "tabpanel");
    if (caption && caption.id) { canvas.setAttribute("aria-labelledby", caption.id); }
  });
  frames();
  this.frames = frames;
  window.addEventListener("resize", frames);
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
  /* Rotation stops when keyboard focus enters the player or a mouse pointer rests on the figure for
     HOVER_REST_MS, and restarts only when the user presses Play.  Only the figure counts, and only a
     rest: a pointer on its way to "Pause animation" must find that label still there when it clicks.
     Touch and pen have no dependable hover: their
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
    rest = window.setTimeout(function () { self.pause(); }, HOVER_REST_MS);
  });
  figure.addEventListener("pointerleave", function () { window.clearTimeout(rest); });
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

Player.prototype.show = function () {
  var self = this;
  this.svgs().forEach(function (svg) {
    var current = svg.querySelector("[data-mech-current]");
    if (current) { current.removeAttribute("data-mech-current"); }
    var frame = svg.querySelector("[data-mech-frame='" + (self.step + 1) + "']");
    if (frame) { frame.setAttribute("data-mech-current", ""); self.reveal(frame); }
  });
  var selected = this.step;
  this.tabs().forEach(function (tab, index) {
    tab.setAttribute("aria-selected", index === selected ? "true" : "false");
    tab.setAttribute("tabindex", index === selected ? "0" : "-1");
  });
  this.status.textContent = this.describe();
};

/* In a figure that scrolls in its frame, bring the step's highlighted boxes into view (of the drawing
   shown: the hidden layout's boxes have no place on the page). */
Player.prototype.reveal = function (frame) {
  var canvas = this.scenes[this.scenario].querySelector("[data-mech-canvas]");
  var step = frame.getAttribute("data-mech-frame");
  var svg = frame.ownerSVGElement;
  var boxes = svg.querySelectorAll("[data-mech-steps~='" + step + "'] rect");
  if (!canvas || !boxes.length || !svg.getClientRects().length || canvas.scrollWidth <= canvas.clientWidth + 1) {
    return;
  }
  var view = canvas.getBoundingClientRect();
  var left = Infinity, right = -Infinity;
  Array.prototype.forEach.call(boxes, function (box) {
    var r = box.getBoundingClientRect();
    left = Math.min(left, r.left);
    right = Math.max(right, r.right);
  });
  if (left < view.left || right > view.right) {
    canvas.scrollLeft += (left + right) / 2 - (view.left + view.right) / 2;
  }
};

Player.prototype.now = function () { return window.performance.now(); };

Player.prototype.schedule = function () {
  var self = this;
  window.clearTimeout(this.timer);
  this.startedAt = this.now();
  var remaining = Math.max(0, this.steps()[this.step].duration - this.elapsed);
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
  this.timer = null;
  this.playing = false;
  this.status.setAttribute("aria-live", "polite");
  this.showPlaying(false);
  this.svgs().forEach(function (svg) { svg.setAttribute("data-mech-paused", ""); });
};

Player.prototype.go = function (step, byUser) {
  var count = this.steps().length;
  this.step = (step + count) % count;
  this.elapsed = 0;
  if (byUser) { this.status.setAttribute("aria-live", "polite"); }
  this.show();
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
  this.tablists[index].hidden = false;
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
};

/* Put back on the page: as it was when it was taken off. */
Player.prototype.resume = function () {
  window.addEventListener("resize", this.frames);
  this.frames();
  if (this.wasPlaying) { this.play(); }
};

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
