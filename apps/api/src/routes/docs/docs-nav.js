/**
 * The API reference page before Redoc takes it over. The server sends Redoc's rendered markup, readable and styled at
 * once; loading Redoc and hydrating that markup (attaching it to every element of a large page) keeps the browser
 * busy for seconds. Until then this script makes the menu work: a click on a menu item scrolls to its section and
 * opens a tag's list of operations, without touching the markup Redoc will hydrate (the list is opened by a style rule
 * in <head>). Redoc's script (/docs/docs.js, versioned) is fetched, and Redoc hydrates the page, at the first interaction that
 * needs it (anything but the menu: a tab, an expander, a key; that first press only starts it), or once the page has
 * been idle for a few seconds; Redoc then follows the address's #fragment to the same place. Fetching it earlier
 * would run its megabyte of script right when the reader's first click comes.
 */
/* global document, window, history, requestIdleCallback, setTimeout, CSS */
(function () {
  "use strict";
  var IDLE_DELAY_MS = 4000;
  var attached = false;
  var wanted = false;
  var loading = null;
  var opened = document.createElement("style");
  document.head.appendChild(opened);

  /** Fetches and runs Redoc's script once; `then` runs when it has (at once if it already has). */
  function loadRedoc(then) {
    if (typeof window.lmDocsHydrate === "function") return then();
    if (!loading) {
      loading = document.createElement("script");
      // The page names the script of its own render (versioned), on the state's data block.
      loading.src = document.getElementById("redoc-state").getAttribute("data-script");
      document.head.appendChild(loading);
    }
    loading.addEventListener("load", then, { once: true });
  }

  /** Hands the page to Redoc (once). */
  function hydrate() {
    if (wanted) return;
    wanted = true;
    loadRedoc(function () {
      attached = true;
      opened.remove();
      var lazy = document.getElementById("docs-before-redoc");
      if (lazy) lazy.remove();
      window.lmDocsHydrate();
    });
  }

  /** The menu item (`<li data-item-id>`) that `target` is or lies in; null outside the menu. */
  function menuItemOf(target) {
    return target instanceof window.Element ? target.closest("li[data-item-id]") : null;
  }

  /** Scrolls to the section of menu item `item`, opening its list of operations if it has one. */
  function follow(item) {
    var id = item.getAttribute("data-item-id");
    var section = document.querySelector('[data-section-id="' + CSS.escape(id) + '"]');
    if (item.querySelector(":scope > ul")) {
      opened.textContent += 'li[data-item-id="' + CSS.escape(id) + '"] > ul { display: block !important; }\n';
    }
    if (section) {
      section.scrollIntoView();
      history.replaceState(null, "", "#" + encodeURI(id));
    }
  }

  document.addEventListener(
    "click",
    function (event) {
      var item = attached ? null : menuItemOf(event.target);
      if (!item) return;
      follow(item);
      event.preventDefault();
    },
    true,
  );

  // Enter on a focused menu item does what Redoc's menu does with it.
  document.addEventListener(
    "keydown",
    function (event) {
      var item = attached || event.key !== "Enter" ? null : menuItemOf(event.target);
      if (!item) return;
      follow(item);
      event.preventDefault();
    },
    true,
  );

  ["pointerdown", "keydown", "focusin"].forEach(function (type) {
    document.addEventListener(
      type,
      function (event) {
        if (!menuItemOf(event.target)) hydrate();
      },
      true,
    );
  });

  /** Runs `task` when the browser has nothing else to do, so a reader's click is not kept waiting behind it. */
  function whenIdle(task) {
    if (typeof requestIdleCallback === "function") requestIdleCallback(task, { timeout: IDLE_DELAY_MS });
    else setTimeout(task, 0);
  }

  window.addEventListener("load", function () {
    setTimeout(function () {
      whenIdle(hydrate);
    }, IDLE_DELAY_MS);
  });
})();
