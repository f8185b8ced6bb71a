// The service worker of the installable app shell (thud_site/views_app.py says what it
// keeps and why). Rendered by Django so that it knows the asset URLs and their version.
"use strict";

var CONFIG = {{ config|safe }};
var STATIC = "thud-static-" + CONFIG.version;
var PAGES = CONFIG.pages;
var MAX_PAGES = 40;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC).then(function (cache) { return cache.addAll(CONFIG.assets); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("thud-static-") === 0 && name !== STATIC;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Never cached. Logging in or out empties the saved pages: they were someone's.
    if (CONFIG.clearOn.indexOf(url.pathname) !== -1) event.waitUntil(caches.delete(PAGES));
    return;
  }
  var isPrivate = CONFIG.private.some(function (prefix) { return url.pathname.indexOf(prefix) === 0; });
  if (isPrivate) return;
  if (url.pathname.indexOf(CONFIG.staticPrefix) === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" || url.pathname === CONFIG.catalog) {
    event.respondWith(networkFirst(request));
  }
  // Everything else (htmx fragments, the API, event streams) goes to the network untouched.
});

function cacheFirst(request) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

// "no-store" (a personal-link page) is never kept, and a copy kept before is dropped: a
// revoked link must not open from this device.
function storable(response) {
  return !/(^|[,\s])no-store($|[,\s])/i.test(response.headers.get("Cache-Control") || "");
}

function networkFirst(request) {
  return fetch(request).then(function (response) {
    if (!storable(response)) {
      caches.open(PAGES).then(function (cache) { return cache.delete(request.url); });
    } else if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      copy.blob().then(function (body) {
        var headers = new Headers(copy.headers);
        headers.set("X-Thud-Saved-At", new Date().toISOString());
        return caches.open(PAGES).then(function (cache) {
          return cache.put(request.url, new Response(body, { status: 200, headers: headers }))
            .then(function () { return trim(cache); });
        });
      });
    }
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(request.url, { ignoreVary: true, ignoreSearch: false });
    }).then(function (saved) {
      if (!saved) return Response.error();
      if (request.mode !== "navigate") return saved;
      return saved.text().then(function (html) {
        // The page says it is a saved copy, and since when (static/js/offline.js).
        var when = saved.headers.get("X-Thud-Saved-At") || "";
        html = html.replace("<body ", '<body data-offline-saved-at="' + when + '" ');
        return new Response(html, { status: 200, headers: saved.headers });
      });
    });
  });
}

// Keeps the pages most recently saved (a cache lists its entries oldest first).
function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (key) {
      return cache.delete(key);
    }));
  });
}
